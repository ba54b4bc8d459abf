#include <omp.h>
int shared_value;
int seen[2];
int main(void) {
#pragma omp parallel num_threads(2)
  {
    if (omp_get_thread_num() == 0)
      shared_value = 42;
#pragma omp barrier
    seen[omp_get_thread_num()] = shared_value;
  }
  return seen[1];
}
