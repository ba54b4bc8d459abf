#include <omp.h>
int x;
int main(void) {
#pragma omp parallel
  {
#pragma omp single
    {
#pragma omp task
      x = omp_get_thread_num();
      x = 2;
    }
  }
  return x;
}
