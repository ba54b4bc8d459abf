// Rows of variable length `m`: the loop's bound `m` is the row's length, so `j` and
// `j - 1` stay within the row and row `i` is not row `i - 1` (prove/values.rs).
#include <omp.h>
int main(void) {
  int i, j;
  int n = 3, m = 3;
  double b[n][m];
  for (i = 1; i < n; i++)
#pragma omp parallel for num_threads(2)
    for (j = 1; j < m; j++)
      b[i][j] = b[i - 1][j - 1];
  return 0;
}
