// The wavefront of omp_wavefront_free.c reading row 3*i - 2*t - 3: the row iteration
// i - 1 writes.
#include <omp.h>
double a[12][8];
int main(void) {
  int t, i, j;
  for (t = 1; t < 3; t++)
#pragma omp parallel for private(j) num_threads(2)
    for (i = t; i < t + 2; i++) {
      a[3 * i - 2 * t][0] = a[3 * i - 2 * t - 3][0] + a[3 * i - 2 * t + 1][0];
      for (j = 2 * t - 2 * i + 1; j <= 2 * t - 2 * i + 6; j++)
        a[3 * i - 2 * t][j - 2 * t + 2 * i] = a[3 * i - 2 * t + 1][j - 2 * t + 2 * i];
    }
  return 0;
}
