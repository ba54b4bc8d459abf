#include <omp.h>
int a[8];
int main(void) {
  int i;
#pragma omp parallel for
  for (i = 0; i < 7; i++)
    a[i] = a[i + 1] + 1;
  return 0;
}
