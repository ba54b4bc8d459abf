#include <assert.h>
#include <pthread.h>
int x;
void *t(void *a) {
  int v = 1;
  assert(v == 0);
  x = 1;
  return 0;
}
int main(void) {
  pthread_t h;
  pthread_create(&h, 0, t, 0);
  int r = x;
  pthread_join(h, 0);
  return r;
}
