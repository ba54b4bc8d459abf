#include <stdio.h>
int b[4][8];
int main(void) {
#pragma omp parallel for
  for (int i = 1; i < 4; i++)
    for (int j = 0; j < 8; j++)
      for (int k = 0; k < 1; k++)
        b[i][j] = j < 7 ? j : b[i - 1][j];
  printf("%d\n", b[3][7]);
  return 0;
}
