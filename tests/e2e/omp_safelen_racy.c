#include <omp.h>
int a[8];
int main(void) {
#pragma omp simd safelen(2)
  for (int i = 0; i < 3; i++)
    a[i + 1] = a[i] + 1;
  return a[3];
}
