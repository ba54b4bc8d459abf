// A `parallel` region run in a loop, with a `nowait` loop inside: a thread that leaves the
// loop reads b[7] while another may still write it (each encounter is a new team).
int a[10];
int b[10];
int main(void) {
  int x = 0;
  for (int k = 0; k < 2; k++) {
#pragma omp parallel
    {
#pragma omp for nowait
      for (int i = 0; i < 10; i++)
        b[i] = a[i] + k;
#pragma omp single
      x = b[7];
    }
  }
  return x;
}
