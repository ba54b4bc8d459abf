#include <omp.h>
int main(void) {
  int hits = 0;
#pragma omp parallel num_threads(2)
  {
#pragma omp atomic
    hits++;
  }
  return hits;
}
