#include <omp.h>
int a[8];
int main(void) {
  int i;
#pragma omp simd
  for (i = 0; i < 3; i++)
    a[i + 1] = a[i] + 1;
  return a[4];
}
