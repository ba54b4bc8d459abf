#include <omp.h>
int main(void) {
  int x = 0;
#pragma omp parallel
#pragma omp single
  {
#pragma omp taskgroup
    {
#pragma omp task
      {
#pragma omp task
        x = 1;
      }
    }
    x = 2;
  }
  return x;
}
