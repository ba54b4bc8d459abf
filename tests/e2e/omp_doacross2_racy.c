#include <omp.h>
int a[2][2];
int main(void) {
  int i, j;
#pragma omp parallel for ordered(2)
  for (i = 0; i < 2; i++)
    for (j = 0; j < 2; j++) {
      a[i][j] = a[i - 1][j] + 1;
#pragma omp ordered depend(sink: i - 1, j) depend(sink: i, j - 1)
#pragma omp ordered depend(source)
    }
  return a[1][1];
}
