#include <pthread.h>
void *t(void *p) { int *q = p; *q = 42; return 0; }
int main(void) {
  int local = 0;
  pthread_t x;
  pthread_create(&x, 0, t, &local);
  int seen = local;
  pthread_join(x, 0);
  return seen;
}
