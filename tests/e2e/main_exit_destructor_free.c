#include <pthread.h>
pthread_key_t key;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
int value, shared;
void release(void *v) {
  pthread_mutex_lock(&m);
  shared = 1;
  pthread_mutex_unlock(&m);
}
void *worker(void *p) {
  pthread_mutex_lock(&m);
  int s = shared;
  pthread_mutex_unlock(&m);
  return 0;
}
int main(void) {
  pthread_t t;
  pthread_key_create(&key, release);
  pthread_setspecific(key, &value);
  pthread_create(&t, 0, worker, 0);
  pthread_exit(0);
}
