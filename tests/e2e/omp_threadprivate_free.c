#include <omp.h>
int partial;
#pragma omp threadprivate(partial)
int total;
int main(void) {
#pragma omp parallel
  {
    partial = omp_get_thread_num() + 1;
#pragma omp critical
    total = total + partial;
  }
  return total;
}
