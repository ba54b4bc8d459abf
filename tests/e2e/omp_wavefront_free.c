// A wavefront: in step t, iteration i writes row 3*i - 2*t and reads rows 3*i - 2*t - 1
// and 3*i - 2*t + 1. Two iterations' rows differ by a multiple of 3, never by 1 or 2
// (prove/affine.rs); the inner loop's columns, bounded relative to t and i, stay in the
// row (prove/bounds.rs).
#include <omp.h>
double a[12][8];
int main(void) {
  int t, i, j;
  for (t = 1; t < 3; t++)
#pragma omp parallel for private(j) num_threads(2)
    for (i = t; i < t + 2; i++) {
      a[3 * i - 2 * t][0] = a[3 * i - 2 * t - 1][0] + a[3 * i - 2 * t + 1][0];
      for (j = 2 * t - 2 * i + 1; j <= 2 * t - 2 * i + 6; j++)
        a[3 * i - 2 * t][j - 2 * t + 2 * i] = a[3 * i - 2 * t + 1][j - 2 * t + 2 * i];
    }
  return 0;
}
