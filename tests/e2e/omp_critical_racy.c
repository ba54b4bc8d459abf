#include <omp.h>
int count;
int main(void) {
#pragma omp parallel
  {
    count = count + 1;
  }
  return count;
}
