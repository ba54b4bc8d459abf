// A region in a sequential loop: every thread of the team reads the same `i`, so row `i`
// (written) and row `i - 1` (read) are different rows (prove/invariant.rs).
#include <omp.h>
int b[3][3];
int main(void) {
  int i, j;
  for (i = 1; i < 3; i++)
#pragma omp parallel for num_threads(2)
    for (j = 1; j < 3; j++)
      b[i][j] = b[i - 1][j - 1];
  return b[2][1];
}
