#include <omp.h>
// Every thread writes x after the loop's barrier: two iterations, which two threads
// finish within the default bounds, so the write after the barrier is checked: a race.
int a[2];
int x;
int main(void) {
#pragma omp parallel
  {
#pragma omp for
    for (int i = 0; i < 2; i++)
      a[i] = i;
    x = omp_get_thread_num();
  }
  return 0;
}
