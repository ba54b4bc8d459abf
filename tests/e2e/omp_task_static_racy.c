#include <omp.h>

int main(void) {
  int result = 0;
#pragma omp parallel num_threads(2)
  {
    static int count = 0;
#pragma omp single
    {
#pragma omp task
      count = count + 1;
#pragma omp task
      count = count + 2;
    }
#pragma omp single
    result = count;
  }
  return result;
}
