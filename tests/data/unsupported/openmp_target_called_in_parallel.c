void scale(double *a, int n) {
#pragma omp target map(tofrom: a[0:n])
  for (int k = 0; k < n; k++)
    a[k] = a[k] * 2.0;
}
int main(void) {
  double a[8] = {0};
#pragma omp parallel num_threads(2)
  scale(a, 8);
  return (int)a[4];
}
