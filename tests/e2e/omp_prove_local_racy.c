// The inner loop shared, over a local matrix of a function main calls once: iteration j
// reads m[i][j + 1], which iteration j + 1 writes.
#include <omp.h>
static int work(void) {
  int i, j;
  int m[3][4];
  for (i = 0; i < 2; i++) {
#pragma omp parallel for num_threads(2)
    for (j = 0; j < 3; j++)
      m[i][j] = m[i][j + 1] + 1;
  }
  return 0;
}
int main(void) {
  work();
  return 0;
}
