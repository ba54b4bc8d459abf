#include <omp.h>
int main(void) {
  int x = 0, y = 0;
#pragma omp parallel
#pragma omp single
  {
#pragma omp task
    x = 1;
    y = x;
#pragma omp taskwait
  }
  return y;
}
