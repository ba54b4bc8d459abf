#include <omp.h>
int a[8], b[8];
int main(void) {
  int i, tmp;
#pragma omp parallel for private(tmp)
  for (i = 0; i < 8; i++) {
    tmp = a[i] * 2;
    b[i] = tmp;
  }
  return 0;
}
