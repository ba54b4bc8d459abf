void scale(double *a, double *b, int n) {
  int i;
#pragma omp target map(to: a[0:n]) map(from: b[0:n])
#pragma omp parallel for
  for (i = 0; i < n; i++)
    b[i] = a[i] * 2.0;
}
int main(void) {
  double a[8], b[8];
  int i;
  for (i = 0; i < 8; i++)
    a[i] = i;
  scale(a, b, 8);
  return (int)b[4];
}
