int a[8];
int main(void) {
  int i, n = 8;
  /* A scalar assigned in the region is firstprivate there: not modelled. */
#pragma omp target map(tofrom: a[0:8])
  {
    n = 4;
    for (i = 0; i < n; i++)
      a[i] = i;
  }
  return a[0] + n;
}
