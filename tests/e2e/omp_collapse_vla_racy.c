// The transpose: iteration (i, j) writes c[j][i], which iteration (j, i) reads.
#include <omp.h>
int main(void) {
  int len = 2;
  double c[len][len];
  int i, j;
#pragma omp parallel for collapse(2) num_threads(2)
  for (i = 0; i < len; i++)
    for (j = 0; j < len; j++)
      c[j][i] = c[i][j] * 2.0;
  return 0;
}
