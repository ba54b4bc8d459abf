#include <omp.h>
int main(void) {
  int x = 0;
#pragma omp parallel
#pragma omp single
  {
#pragma omp task
    {
#pragma omp task
      x = 1;
    }
#pragma omp taskwait
    x = 2;
  }
  return x;
}
