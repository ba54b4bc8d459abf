#include <omp.h>
int a[2];
int main(void) {
  int i, y = 0;
#pragma omp parallel
#pragma omp single
  {
#pragma omp taskloop nogroup
    for (i = 0; i < 2; i++)
      a[i] = i;
    y = a[1];
  }
  return y;
}
