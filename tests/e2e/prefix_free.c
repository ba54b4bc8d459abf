/* The twin of prefix_racy.c: main reads x under the lock the worker writes it under.
 * Cut after any of its first visible statements (`--prefix N`), the worker waits for
 * ever there, inside its critical section or not, and never ends: no race either way. */
#include <pthread.h>
int x, z;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
void *worker(void *arg) {
  pthread_mutex_lock(&m);
  x = 1;
  pthread_mutex_unlock(&m);
  z = 1;
  z = 2;
  return arg;
}
int main(void) {
  pthread_t t;
  pthread_create(&t, 0, worker, 0);
  pthread_mutex_lock(&m);
  int r = x;
  pthread_mutex_unlock(&m);
  pthread_join(t, 0);
  z = 4;
  return r + z;
}
