#include <omp.h>
int a[8], b[8];
int main(void) {
  int i;
#pragma omp simd
  for (i = 0; i < 3; i++)
    a[i] = b[i] + 1;
  return a[3];
}
