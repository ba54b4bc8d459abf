#include <stdio.h>
int sum;
int main(void) {
  #pragma omp target data map(tofrom: sum)
  for (int i = 0; i < 10; i++) sum += i;
  printf("%d\n", sum);
  return 0;
}
