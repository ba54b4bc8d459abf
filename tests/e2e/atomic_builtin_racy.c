#include <pthread.h>
int x;
void *t(void *p) { __atomic_fetch_add(&x, 1, __ATOMIC_SEQ_CST); return 0; }
int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, t, 0);
  pthread_create(&b, 0, t, 0);
  return x;
}
