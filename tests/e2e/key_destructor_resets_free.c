#include <pthread.h>
#include <stdlib.h>
pthread_key_t key;
int finalized;
/* Like an allocator's thread finalizer: it clears the thread's value itself. */
void finalize(void *v) {
  finalized = 1;
  pthread_setspecific(key, 0);
  free(v);
}
void *worker(void *p) {
  pthread_setspecific(key, malloc(sizeof(int)));
  return 0;
}
int main(void) {
  pthread_t t;
  pthread_key_create(&key, finalize);
  pthread_create(&t, 0, worker, 0);
  pthread_join(t, 0);
  int seen = finalized;
  return seen;
}
