#include <pthread.h>
int counter;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static int bump(int v) { int r = v + 1; if (r > 100) r = 0; return r; }
static int twice(int v) { int a = bump(v); return bump(a); }
void *worker(void *arg) {
  int v = twice(1);
  pthread_mutex_lock(&m);
  counter = bump(v);
  pthread_mutex_unlock(&m);
  return 0;
}
int main(void) {
  pthread_t t;
  pthread_create(&t, 0, worker, 0);
  pthread_mutex_lock(&m);
  int w = twice(counter);
  pthread_mutex_unlock(&m);
  pthread_join(t, 0);
  return w;
}
