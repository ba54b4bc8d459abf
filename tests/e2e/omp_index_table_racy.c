// omp_index_table_free.c with entries 2 and 5 in the table: iteration 2 updates x2[2],
// which is base[5], and iteration 3 updates x1[5], the same element.
#include <stdlib.h>
int t[6] = {0, 1, 2, 5, 9, 10};
int main(void) {
  int i;
  double *base = (double *)malloc(sizeof(double) * 16);
  if (base == 0)
    return 1;
  double *x1 = base;
  double *x2 = base + 3;
#pragma omp parallel for num_threads(2)
  for (i = 0; i < 6; i++) {
    int idx = t[i];
    x1[idx] += 1.0;
    x2[idx] += 3.0;
  }
  free(base);
  return 0;
}
