#include <omp.h>
int a[8];
int main(void) {
  int i, n = 1000;
  for (i = 0; i < n; i++)
    a[i % 8] = i;
#pragma omp parallel for
  for (i = 0; i < 7; i++)
    a[i] = a[i + 1] + 1;
  return 0;
}
