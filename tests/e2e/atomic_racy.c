#include <pthread.h>
int x;
void __VERIFIER_atomic_inc(void) { x = x + 1; }
void *t(void *p) { __VERIFIER_atomic_inc(); return 0; }
void *u(void *p) { x = 5; return 0; }
int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, t, 0);
  pthread_create(&b, 0, u, 0);
  return 0;
}
