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
void *idle(void *p) {
  return 0;
}
int main(void) {
  pthread_t t, u;
  pthread_key_create(&key, release);
  pthread_create(&t, 0, worker, 0);
  pthread_join(t, 0);
  pthread_create(&u, 0, idle, 0);
  int seen = freed; /* idle sets no value: its exit runs no destructor */
  pthread_join(u, 0);
  return seen;
}
