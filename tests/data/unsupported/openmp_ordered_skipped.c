#include <omp.h>
int count;
int main(void) {
#pragma omp parallel for ordered
  for (int i = 0; i < 4; i++) {
    if (i % 2) {
#pragma omp ordered
      count = count + 1;
    }
  }
  return count;
}
