#include <stdio.h>
int sum;
int main(void) {
#ifdef _OPENMP
#pragma omp target data map(tofrom: sum)
#endif
  for (int i = 0; i < 10; i++)
    sum += i;
  printf("%d\n", sum);
  return 0;
}
