#include <omp.h>
int a[8];
int main(void) {
  int i;
#pragma omp parallel for ordered(1)
  for (i = 1; i < 8; i++) {
#pragma omp ordered depend(sink : i + 1)
    a[i] = a[i - 1] + 1;
#pragma omp ordered depend(source)
  }
  return 0;
}
