void shift(double *a, int n) {
  int i;
#pragma omp target map(tofrom: a[0:n])
#pragma omp parallel for
  for (i = 0; i < n - 1; i++)
    a[i] = a[i + 1] * 2.0;
}
int main(void) {
  double a[8];
  int i;
  for (i = 0; i < 8; i++)
    a[i] = i;
  shift(a, 8);
  return (int)a[4];
}
