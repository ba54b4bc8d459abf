// DRB001's anti-dependence: iteration i reads a[i + 1], which iteration i + 1 writes.
#include <omp.h>
int a[8];
int main(void) {
  int i;
#pragma omp parallel for num_threads(2)
  for (i = 0; i < 7; i++)
    a[i] = a[i + 1] + 1;
  return a[0];
}
