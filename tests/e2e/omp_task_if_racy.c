#include <omp.h>
int main(void) {
  int x = 0, deferred = 1;
#pragma omp parallel
#pragma omp single
  {
#pragma omp task if(deferred)
    x = 1;
    x = 2;
  }
  return x;
}
