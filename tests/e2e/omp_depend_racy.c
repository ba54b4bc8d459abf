#include <omp.h>
int main(void) {
  int x = 0, y = 0, z = 0;
#pragma omp parallel
#pragma omp single
  {
#pragma omp task depend(out: x)
    x = 1;
#pragma omp task depend(in: z)
    y = x;
  }
  return y;
}
