#include <omp.h>
int a[2];
int main(int argc, char **argv) {
  if (argc > 0) {
#pragma omp parallel for num_threads(2)
    for (int i = 0; i < 2; i++) a[i] = i;
  }
#pragma omp parallel for num_threads(2)
  for (int i = 0; i < 2; i++) a[i] = a[i] + 1;
  return a[0];
}
