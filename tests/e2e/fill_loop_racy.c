#include <pthread.h>
#include <stdlib.h>
extern char __VERIFIER_nondet_char(void);
struct dev { int regs[200]; int status; };
void *alloc_any(unsigned size) {
  char *p = malloc(size);
  for (unsigned i = 0; i < size; ++i)
    p[i] = __VERIFIER_nondet_char();
  return p;
}
struct dev *d;
void *irq(void *arg) { d->status = 1; return 0; }
void *poll(void *arg) { int s = d->status; return 0; }
int main(void) {
  d = alloc_any(sizeof(struct dev));
  pthread_t a, b;
  pthread_create(&a, 0, irq, 0);
  pthread_create(&b, 0, poll, 0);
  return 0;
}
