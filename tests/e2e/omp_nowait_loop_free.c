// A `parallel` region run in a loop, with a `nowait` loop inside: the read after it is of
// another array, and the region's end orders each encounter before the next. (Two
// iterations, which two threads finish within the default unwinding.)
int a[2];
int b[2];
int main(void) {
  int x = 0;
  for (int k = 0; k < 2; k++) {
#pragma omp parallel
    {
#pragma omp for nowait
      for (int i = 0; i < 2; i++)
        b[i] = a[i] + k;
#pragma omp single
      x = a[1];
    }
  }
  return x;
}
