#include <omp.h>
int a[4];
int main(void) {
  int x = 0;
#pragma omp parallel firstprivate(x)
  {
#pragma omp single
    x = 1;
    a[x + omp_get_thread_num()] = 5;
  }
  return a[1];
}
