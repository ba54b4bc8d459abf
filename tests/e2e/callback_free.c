#include <pthread.h>
int glob;
pthread_mutex_t m1 = PTHREAD_MUTEX_INITIALIZER;
pthread_mutex_t m2 = PTHREAD_MUTEX_INITIALIZER;
int nondet(void);
void each(int (*callback)(void)) {
  for (int i = 0; i < 3; i++)
    if (nondet())
      callback();
}
int bump(void) {
  pthread_mutex_lock(&m1);
  glob = glob + 1;
  pthread_mutex_unlock(&m1);
  return 0;
}
void *worker(void *arg) {
  pthread_mutex_lock(&m1);
  glob = glob + 1;
  pthread_mutex_unlock(&m1);
  return 0;
}
int main(void) {
  pthread_t t;
  pthread_create(&t, 0, worker, 0);
  each(bump);
  pthread_join(t, 0);
  return 0;
}
