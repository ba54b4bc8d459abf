#include <pthread.h>
#include <errno.h>
#include <time.h>
int ready, gave_up;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
pthread_cond_t c = PTHREAD_COND_INITIALIZER;
void *waiter(void *a) {
  struct timespec limit = {1, 0};
  pthread_mutex_lock(&m);
  int rc = pthread_cond_timedwait(&c, &m, &limit);
  pthread_mutex_unlock(&m);
  if (rc == ETIMEDOUT)
    gave_up = 1;
  return 0;
}
int main(void) {
  pthread_t t;
  pthread_create(&t, 0, waiter, 0);
  int seen = gave_up;
  pthread_join(t, 0);
  return seen;
}
