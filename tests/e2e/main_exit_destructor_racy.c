#include <pthread.h>
pthread_key_t key;
int value, shared;
void release(void *v) {
  shared = 1;
}
void *worker(void *p) {
  int s = shared;
  return 0;
}
int main(void) {
  pthread_t t;
  pthread_key_create(&key, release);
  pthread_setspecific(key, &value);
  pthread_create(&t, 0, worker, 0);
  pthread_exit(0);
}
