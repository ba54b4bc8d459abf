// Racy if the threads ran, but CBMC's pointer encoding makes a pointer's integer value at
// least 2^32, so `main` always returns before creating the thread: the "no race" is
// vacuous and must say so (issue 27).
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
int x;
void *t(void *a) {
  x++;
  return 0;
}
int main(void) {
  int *p = malloc(sizeof *p);
  if ((uintptr_t)p >= 1ull << 32)
    return 0;
  pthread_t h;
  pthread_create(&h, 0, t, 0);
  x++;
  pthread_join(h, 0);
  return 0;
}
