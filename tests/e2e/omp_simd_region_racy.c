#include <omp.h>
int a[16];
int main(void) {
#pragma omp parallel num_threads(2)
  {
    int t = omp_get_thread_num();
#pragma omp simd
    for (int i = 0; i < 3; i++)
      a[t * 8 + i + 1] = a[t * 8 + i] + 1;
  }
  return 0;
}
