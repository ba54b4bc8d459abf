#include <omp.h>
int x;
int main(void) {
  int n = 4;
#pragma omp parallel if (n > 100)
  x = x + 1;
#pragma omp parallel
  {
#pragma omp atomic
    x++;
  }
  return 0;
}
