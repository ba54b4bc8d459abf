#include <pthread.h>
#include <stdlib.h>
pthread_key_t key;
int freed;
void release(void *v) {
  freed = 1;
  free(v);
}
void *worker(void *p) {
  pthread_setspecific(key, malloc(sizeof(int)));
  return 0;
}
int main(void) {
  pthread_t t;
  pthread_key_create(&key, release);
  pthread_create(&t, 0, worker, 0);
  int seen = freed;
  pthread_join(t, 0);
  return seen;
}
