#include <omp.h>
// Racy: every thread writes x after the loop's barrier. But no execution within the
// default bounds finishes the loop (two threads claim at most two iterations each of the
// hundred), so none reaches the write: the answer must be unknown, not "no race".
int a[100];
int x;
int main(void) {
#pragma omp parallel
  {
#pragma omp for
    for (int i = 0; i < 100; i++)
      a[i] = i;
    x = omp_get_thread_num();
  }
  return 0;
}
