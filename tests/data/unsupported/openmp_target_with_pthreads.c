#include <pthread.h>
int a[8];
void *other(void *p) { a[0] = 3; return p; }
int main(void) {
  pthread_t t;
  pthread_create(&t, 0, other, 0);
  /* The program's own thread may run beside the region and its copying. */
#pragma omp target map(tofrom: a[0:8])
  a[1] = 2;
  pthread_join(t, 0);
  return a[1];
}
