#include <pthread.h>
#include <stdatomic.h>
atomic_int counter;
void *t(void *arg) {
  atomic_fetch_add(&counter, 1);
  return 0;
}
void *u(void *arg) {
  /* A plain access of the atomic object (through a pointer to a plain int). */
  int *q = (int *)&counter;
  *q = 5;
  return 0;
}
int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, t, 0);
  pthread_create(&b, 0, u, 0);
  return 0;
}
