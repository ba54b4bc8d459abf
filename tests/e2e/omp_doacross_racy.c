#include <omp.h>
int a[4];
int main(void) {
#pragma omp parallel for ordered(1)
  for (int i = 1; i < 4; i++) {
    a[i] = a[i - 1] + 1;
#pragma omp ordered depend(sink: i - 1)
#pragma omp ordered depend(source)
  }
  return a[3];
}
