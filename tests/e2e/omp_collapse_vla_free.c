// `collapse(2)` over rows of variable length `len`: the collapsed iteration's digits `i`
// and `j` are each iteration's own pair, `j` below the rows' length (prove/collapse.rs).
#include <omp.h>
int main(void) {
  int len = 2;
  double a[len][len], c[len][len];
  int i, j;
#pragma omp parallel for collapse(2) num_threads(2)
  for (i = 0; i < len; i++)
    for (j = 0; j < len; j++)
      c[i][j] = a[i][j] * 2.0;
  return 0;
}
