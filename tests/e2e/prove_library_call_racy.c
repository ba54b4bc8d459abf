// The twin: the workers release the mutex before they use the block and sum.
#include <pthread.h>
#include <stdlib.h>
struct table {
  int n;
  void *(*alloc)(size_t);
  void (*release)(void *);
} cfg = {4, malloc, free};
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
int total;
void *worker(void *arg) {
  pthread_t me = pthread_self();
  pthread_mutex_lock(&m);
  int *block = cfg.alloc(sizeof(int) * (size_t)cfg.n);
  pthread_mutex_unlock(&m);
  if (__builtin_expect(block != 0 && pthread_equal(me, me), 1)) {
    block[0] = cfg.n;
    total += block[0];
    cfg.release(block);
  }
  return 0;
}
int main(void) {
  pthread_t t, u;
  pthread_create(&t, 0, worker, 0);
  pthread_create(&u, 0, worker, 0);
  pthread_join(t, 0);
  pthread_join(u, 0);
  return total;
}
