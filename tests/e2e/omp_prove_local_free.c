// The inner loop shared, over a local matrix of a function main calls once: iteration j
// touches column j only (prove/splice.rs, nest.rs, alias.rs, worksharing.rs).
#include <omp.h>
static int work(void) {
  int i, j;
  int m[3][2];
  for (i = 0; i < 2; i++) {
#pragma omp parallel for num_threads(2)
    for (j = 0; j < 2; j++)
      m[i][j] = m[i + 1][j] + 1;
  }
  return 0;
}
int main(void) {
  work();
  return 0;
}
