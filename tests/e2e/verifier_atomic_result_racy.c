#include <pthread.h>
int x, y;
int __VERIFIER_atomic_inc(void) { x = x + 1; return x; }
void *t(void *p) {
  y = __VERIFIER_atomic_inc();
  return 0;
}
int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, t, 0);
  pthread_create(&b, 0, t, 0);
  return 0;
}
