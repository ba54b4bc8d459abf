#include <pthread.h>
extern int __VERIFIER_nondet_int(void);
int x;
void *t(void *p) {
  int n = 0;
  while (__VERIFIER_nondet_int()) {
    n++;
    if (n == 2)
      x = 1;
  }
  return 0;
}
void *u(void *p) { int v = x; return 0; }
int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, t, 0);
  pthread_create(&b, 0, u, 0);
  return 0;
}
