#include <stdio.h>
int b[4][8];
static void row(int i) {
  for (int j = 0; j < 8; j++)
    b[i][j] = j < 7 ? j : b[i - 1][j];
}
int main(void) {
#pragma omp parallel for
  for (int i = 1; i < 4; i++)
    row(i);
  printf("%d\n", b[3][7]);
  return 0;
}
