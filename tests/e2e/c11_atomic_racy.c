#include <pthread.h>
void __VERIFIER_atomic_begin(void);
void __VERIFIER_atomic_end(void);
/* A program that cannot include <stdatomic.h> defines the operations itself. */
int atomic_load(int *obj) { return *obj; }
void atomic_store(int *obj, int v) { *obj = v; }
int atomic_fetch_add(int *obj, int v) {
  __VERIFIER_atomic_begin();
  int old = *obj;
  *obj = old + v;
  __VERIFIER_atomic_end();
  return old;
}
int x, y;
void *t(void *p) {
  atomic_fetch_add(&x, 1);
  /* Only the call is atomic: the store of its result to y is a plain write. */
  y = atomic_load(&x);
  return 0;
}
int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, t, 0);
  pthread_create(&b, 0, t, 0);
  return 0;
}
