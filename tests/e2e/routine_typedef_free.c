#include <pthread.h>
typedef void *(*thread_func_t)(void *);
int hits;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static void *worker(void *arg) {
  pthread_mutex_lock(&m); hits++; pthread_mutex_unlock(&m);
  return arg;
}
static void start(thread_func_t fn, pthread_t *t) { pthread_create(t, 0, fn, 0); }
static void start_all(thread_func_t fn, pthread_t *ts) {
  for (int i = 0; i < 2; i++)
    start(fn, &ts[i]);
}
int main(void) {
  pthread_t ts[2];
  start_all(worker, ts);
  for (int i = 0; i < 2; i++)
    pthread_join(ts[i], 0);
  return hits;
}
