// `b[i - 1][j + 1]` at `j = m - 1` is `b[i][0]` in memory, written at `j = 0`.
#include <omp.h>
int main(void) {
  int i, j;
  int n = 3, m = 2;
  double b[n][m];
  for (i = 1; i < n; i++)
#pragma omp parallel for num_threads(2)
    for (j = 0; j < m; j++)
      b[i][j] = b[i - 1][j + 1];
  return 0;
}
