// Row `i` read at column `j - 1`, written at column `j`: iterations `j - 1` and `j` of one
// team race on the same row.
#include <omp.h>
int b[3][3];
int main(void) {
  int i, j;
  for (i = 1; i < 3; i++)
#pragma omp parallel for num_threads(2)
    for (j = 1; j < 3; j++)
      b[i][j] = b[i][j - 1];
  return b[2][1];
}
