// A heap array from a helper that a local pointer of `main` holds, each iteration writing its own element.
#include <stdlib.h>
double *vector(int n) { return (double *)malloc(sizeof(double) * n); }
int main(void) {
  int i, n = 6;
  double *a = vector(n + 1);
  if (a == 0)
    return 1;
#pragma omp parallel for num_threads(2)
  for (i = 0; i < n; i++)
    a[i] = a[i] + i;
  free(a);
  return 0;
}
