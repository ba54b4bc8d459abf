int a[8];
int main(void) {
  /* A map-type modifier (`always`) is not read. */
#pragma omp target map(always, tofrom: a[0:8])
  a[1] = 2;
  return a[1];
}
