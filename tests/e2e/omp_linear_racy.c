#include <omp.h>
int c[8];
int main(void) {
  int i, j = 0;
#pragma omp parallel for
  for (i = 0; i < 2; i++) {
    c[j] = c[j] + i;
    j = j + 2;
  }
  return 0;
}
