#include <stdio.h>
double b[8][100];
int main(void) {
  int n = 8, m = 100;
#pragma omp parallel for
  for (int i = 1; i < n; i++)
    for (int j = 0; j < m; j++)
      b[i][j] = b[i][j - 1];
  printf("%f\n", b[5][5]);
  return 0;
}
