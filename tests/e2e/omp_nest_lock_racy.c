#include <omp.h>
omp_nest_lock_t lock;
int total;
void add(int n) {
  omp_set_nest_lock(&lock);
  total = total + n;
  omp_unset_nest_lock(&lock);
}
int main(void) {
  omp_init_nest_lock(&lock);
#pragma omp parallel
  {
    omp_set_nest_lock(&lock);
    add(1);
    omp_unset_nest_lock(&lock);
    total = total * 2;
  }
  omp_destroy_nest_lock(&lock);
  return total;
}
