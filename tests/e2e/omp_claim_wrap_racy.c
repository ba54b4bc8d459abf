// Iteration 0 writes a[1] at line 11, iteration 1 at line 10.
#include <omp.h>
extern int *alloc_ints(unsigned long n);
int main(void) {
  int *a = alloc_ints(3);
  int *b = alloc_ints(3);
#pragma omp parallel for num_threads(3)
  for (int i = 0; i < 2; i++) {
    b[i] = i;
    a[i] = i;
    a[i + 1] = i;
  }
  return 0;
}
