#include <omp.h>
int x;
int main(void) {
#pragma omp parallel
  {
    if (omp_get_thread_num() == 2)
      x = 1;
    if (omp_get_thread_num() == 1)
      x = 2;
  }
  return x;
}
