// Iteration i reads what iteration i + 10 writes: a race between iterations 10 apart.
int a[30];
int main(void) {
  int i;
#pragma omp parallel for
  for (i = 0; i < 20; i++)
    a[i] = a[i + 10] + 1;
  return 0;
}
