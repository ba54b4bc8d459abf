int a[8];
int main(void) {
#pragma omp parallel
  {
    /* The team's other threads run beside the region and its copying. */
#pragma omp target map(tofrom: a[0:8])
    a[0] = 1;
  }
  return a[0];
}
