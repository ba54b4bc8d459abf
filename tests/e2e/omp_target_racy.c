int a[8];
int main(void) {
  int i;
#pragma omp target map(a[0:8])
#pragma omp parallel for
  for (i = 0; i < 7; i++)
    a[i] = a[i + 1] + 1;
  return a[0];
}
