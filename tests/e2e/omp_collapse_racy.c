#include <omp.h>
int a[3][3];
int main(void) {
  int i, j;
#pragma omp parallel for collapse(2)
  for (i = 0; i < 2; i++)
    for (j = 0; j < 2; j++)
      a[i][j] = a[i][j + 1] + 1;
  return 0;
}
