#include <omp.h>
int count;
int main(void) {
#pragma omp parallel
  {
#pragma omp critical(counter)
    count = count + 1;
  }
  return count;
}
