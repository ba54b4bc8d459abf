#include <omp.h>
int a[8];
int main(void) {
#pragma omp parallel num_threads(1)
  {
#pragma omp for simd
    for (int i = 0; i < 4; i++)
      a[i + 1] = a[i] + 1;
  }
  return a[4];
}
