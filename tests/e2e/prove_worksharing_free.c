// A doall loop: each iteration i touches a[i] only, and two threads never run one
// iteration (prove/worksharing.rs).
#include <omp.h>
int a[8];
int main(void) {
  int i;
#pragma omp parallel for num_threads(2)
  for (i = 0; i < 8; i++)
    a[i] = a[i] + 1;
  return a[0];
}
