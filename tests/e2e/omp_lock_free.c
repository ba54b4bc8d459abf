#include <omp.h>
omp_lock_t lock;
int total;
int main(void) {
  omp_init_lock(&lock);
#pragma omp parallel
  {
    omp_set_lock(&lock);
    total = total + 1;
    total = total * 2;
    omp_unset_lock(&lock);
  }
  omp_destroy_lock(&lock);
  return total;
}
