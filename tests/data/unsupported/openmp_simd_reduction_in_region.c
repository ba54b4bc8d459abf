#include <omp.h>
int a[8], s;
int main(void) {
#pragma omp parallel
  {
#pragma omp simd reduction(+ : s)
    for (int i = 0; i < 4; i++)
      s += a[i];
  }
  return 0;
}
