#include <stdio.h>
int sum;
int main(void) {
  #pragma omp taskloop
  for (int i = 0; i < 10; i++) sum += i;
  printf("%d\n", sum);
  return 0;
}
