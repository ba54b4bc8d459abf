// `A[c1][c2 + 1]` at `c2 = n - 1` is `A[c1 + 1][0]`, which iteration `c1 + 1` reads.
#include <omp.h>
double A[3][2];
static void init(int n) {
  int c1, c2;
#pragma omp parallel for private(c2) num_threads(2)
  for (c1 = 0; c1 <= n - 1; c1++)
    for (c2 = 0; c2 <= n - 1; c2++)
      A[c1][c2 + 1] = A[c1][c2] + 1;
}
int main(void) {
  int n = 2;
  init(n);
  return 0;
}
