#include <pthread.h>
#include <stdlib.h>
pthread_key_t key, other;
int freed;
void release(void *v) {
  freed = 1;
  free(v);
}
void (*cleanup)(void *) = release;
void make_key(pthread_key_t *k, void (*destructor)(void *)) {
  pthread_key_create(k, destructor);
}
void *worker(void *p) {
  pthread_setspecific(key, malloc(sizeof(int)));
  return 0;
}
int main(void) {
  pthread_t t;
  make_key(&key, release);
  pthread_key_create(&other, cleanup);
  pthread_create(&t, 0, worker, 0);
  int seen = freed;
  pthread_join(t, 0);
  return seen;
}
