#include <pthread.h>
#include <stdlib.h>
struct dev { char regs[200]; int state; };
struct dev *d;
void *irq(void *arg) { d->state = 2; return 0; }
static void *zalloc(unsigned long size) { return calloc(1, size); }
static struct dev *alloc_dev(unsigned int priv) { unsigned long size = priv + sizeof(struct dev); return zalloc(size); }
int main(void) {
  d = alloc_dev(600);
  if (!d) return 0;
  d->state = 1;
  pthread_t t;
  pthread_create(&t, 0, irq, 0);
  pthread_join(t, 0);
  return 0;
}
