#include <pthread.h>
int ready, cleaned, seen;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
pthread_cond_t c = PTHREAD_COND_INITIALIZER;
void release(void *mutex) {
  cleaned = 1;
  pthread_mutex_unlock(mutex);
}
void *waiter(void *a) {
  pthread_mutex_lock(&m);
  pthread_cleanup_push(release, &m);
  while (!ready)
    pthread_cond_wait(&c, &m);
  pthread_cleanup_pop(1);
  return 0;
}
int main(void) {
  pthread_t t;
  void *result;
  pthread_create(&t, 0, waiter, 0);
  pthread_cancel(t);
  seen = cleaned;
  pthread_join(t, &result);
  return result == PTHREAD_CANCELED;
}
