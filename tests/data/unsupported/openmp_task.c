#include <omp.h>
int x;
int main(void) {
#pragma omp parallel
  {
#pragma omp single
    {
#pragma omp task
      x = 1;
      x = 2;
    }
  }
  return x;
}
