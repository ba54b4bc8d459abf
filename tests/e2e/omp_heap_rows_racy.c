// Row 0 written by every iteration of the first team.
#include <omp.h>
#include <stdlib.h>
extern void *alloc_data(unsigned long n, int size);
static void init(int n, double A[2 + 0][2 + 0], double B[2 + 0][2 + 0]) {
  {
    int c1;
    int c2;
    if (n >= 1) {
#pragma omp parallel for private(c2)
      for (c1 = 0; c1 <= n + -1; c1++)
        for (c2 = 0; c2 <= n + -1; c2++) {
          A[0][c2] = c1 + c2;
          B[c1][c2] = c1 - c2;
        }
    }
  }
}
static void kernel(int n, int m, double A[2 + 0][2 + 0], double B[2 + 0][2 + 0]) {
  {
    int c0;
    int c1;
    int c2;
    for (c0 = 0; c0 <= 1; c0++) {
#pragma omp parallel for private(c2)
      for (c1 = 0; c1 <= 1; c1++)
        for (c2 = 1; c2 <= 1; c2++)
          B[c1][c2] = B[c1][c2 - 1] + A[c1][2 - c2 - 1];
#pragma omp parallel for private(c2)
      for (c1 = (n > m ? n : m) - 2; c1 <= n + -1; c1++)
        for (c2 = 1; c2 <= 1; c2++)
          A[c2][c1] = A[c2 - 1][c1] * B[2 - 1 - c2][c1];
    }
  }
}
int main(void) {
  int n = 2;
  int m = 2;
  double (*A)[2 + 0][2 + 0];
  A = (double (*)[2 + 0][2 + 0])alloc_data(4, sizeof(double));
  double (*B)[2 + 0][2 + 0];
  B = (double (*)[2 + 0][2 + 0])alloc_data(4, sizeof(double));
  init(n, *A, *B);
  kernel(n, m, *A, *B);
  free((void *)A);
  free((void *)B);
  return 0;
}
