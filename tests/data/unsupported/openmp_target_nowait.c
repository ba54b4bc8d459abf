int a[8];
int main(void) {
  /* An asynchronous target task. */
#pragma omp target map(tofrom: a[0:8]) nowait
  a[1] = 2;
  return a[1];
}
