// Two blocks that may be null, written at one large index by two threads: through null
// pointers both addresses are offset 8000 of CBMC's integer-address object, but neither
// is a device register (the pointer written through is null), so no race.
#include <pthread.h>
extern int *alloc_ints(unsigned long n);
int *a, *b;
void *t1(void *x) { a[2000] = 1; return 0; }
void *t2(void *x) { b[2000] = 2; return 0; }
int main(void) {
  pthread_t x, y;
  a = alloc_ints(4000);
  b = alloc_ints(4000);
  pthread_create(&x, 0, t1, 0);
  pthread_create(&y, 0, t2, 0);
  pthread_join(x, 0);
  pthread_join(y, 0);
  return 0;
}
