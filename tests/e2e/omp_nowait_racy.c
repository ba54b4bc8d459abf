// A thread that leaves the `nowait` loop reads a[15] while another may still write it.
int a[20];
int main(void) {
  int x = 0;
#pragma omp parallel
  {
#pragma omp for nowait
    for (int i = 0; i < 20; i++)
      a[i] = i;
#pragma omp single
    x = a[15];
  }
  return x;
}
