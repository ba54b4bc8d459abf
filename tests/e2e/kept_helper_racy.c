#include <pthread.h>
int counter;
static int bump(int v) { int r = v + 1; if (r > 100) r = 0; return r; }
static int twice(int v) { int a = bump(v); return bump(a); }
void *worker(void *arg) {
  int v = twice(1);
  counter = bump(v);
  return 0;
}
int main(void) {
  pthread_t t;
  pthread_create(&t, 0, worker, 0);
  int w = twice(counter);
  pthread_join(t, 0);
  return w;
}
