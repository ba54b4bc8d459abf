#include <omp.h>
int a[8];
int main(void) {
#pragma omp parallel
  {
#pragma omp simd
    for (int i = 0; i < 4; i++)
      a[i + 1] = a[i];
  }
  return 0;
}
