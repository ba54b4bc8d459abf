#include <omp.h>
int count;
int main(void) {
#pragma omp parallel for ordered
  for (int i = 0; i < 3; i++) {
#pragma omp ordered
    {
      count = count + 1;
      count = count * 2;
    }
  }
  return count;
}
