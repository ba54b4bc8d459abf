#include <pthread.h>
int x;
void *t(void *arg) {
  int *q = &x;
  __atomic_store_n(q, 1, __ATOMIC_SEQ_CST);
  return 0;
}
void *u(void *arg) {
  x = 2;
  return 0;
}
int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, t, 0);
  pthread_create(&b, 0, u, 0);
  return 0;
}
