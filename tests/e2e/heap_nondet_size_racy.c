#include <pthread.h>
#include <stdlib.h>
extern int __VERIFIER_nondet_int(void);
int *buf;
void *w0(void *p) { buf[0] = 1; return 0; }
void *w1(void *p) { buf[0] = 2; return 0; }
int main(void) {
  int n = __VERIFIER_nondet_int();
  if (n < 2 || n > 8) return 0;
  buf = malloc(sizeof(int) * n);
  pthread_t a, b;
  pthread_create(&a, 0, w0, 0);
  pthread_create(&b, 0, w1, 0);
  return 0;
}
