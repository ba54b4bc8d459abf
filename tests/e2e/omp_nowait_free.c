// Without `nowait` the loop's barrier orders every write of a before the read.
int a[20];
int main(void) {
  int x = 0;
#pragma omp parallel
  {
#pragma omp for
    for (int i = 0; i < 20; i++)
      a[i] = i;
#pragma omp single
    x = a[15];
  }
  return x;
}
