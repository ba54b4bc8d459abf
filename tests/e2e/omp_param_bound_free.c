// The region's inner loop runs to `n - 1`, `n` the parameter of a function `main` calls
// once with its constant 2: `c2` stays within rows of 2 (prove/values.rs, splice.rs).
#include <omp.h>
double A[2][2];
static void init(int n) {
  int c1, c2;
#pragma omp parallel for private(c2) num_threads(2)
  for (c1 = 0; c1 <= n - 1; c1++)
    for (c2 = 0; c2 <= n - 1; c2++)
      A[c1][c2] = c1 * c2;
}
int main(void) {
  int n = 2;
  init(n);
  return 0;
}
