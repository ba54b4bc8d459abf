#include <omp.h>
int a[8];
int idx[8];
int main(void) {
  int i, n = 5000;
  for (i = 0; i < n; i++)
    idx[i % 8] = i % 8;
#pragma omp parallel for
  for (i = 0; i < 7; i++)
    a[idx[i]] = i;
  return 0;
}
