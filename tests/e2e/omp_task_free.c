#include <omp.h>
int x;
int main(void) {
#pragma omp parallel
#pragma omp single
  {
    int y = 0;
#pragma omp task
    y = 1;
    y = 2;
    x = y;
  }
  return x;
}
