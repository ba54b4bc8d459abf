#include <omp.h>
int c[8];
int main(void) {
  int i, j = 0;
#pragma omp parallel for linear(j:2)
  for (i = 0; i < 2; i++) {
    c[j] = c[j] + i;
    j = j + 2;
  }
  return j;
}
