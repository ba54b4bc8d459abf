// Two blocks of an allocator without a body (each null or fresh), each written at its own
// indices: a claim past the end that wrapped `i` around met `a` and `b` at null.
#include <omp.h>
extern int *alloc_ints(unsigned long n);
int main(void) {
  int *a = alloc_ints(3);
  int *b = alloc_ints(3);
#pragma omp parallel for num_threads(3)
  for (int i = 0; i < 2; i++) {
    a[i] = i;
    b[i + 1] = i;
  }
  return 0;
}
