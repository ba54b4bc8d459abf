// The twin: the writer holds the rwlock only read-locked, beside the readers.
#include <pthread.h>
pthread_rwlock_t rw = PTHREAD_RWLOCK_INITIALIZER;
int data;
void *reader(void *p) {
  pthread_rwlock_rdlock(&rw);
  int v = data;
  pthread_rwlock_unlock(&rw);
  return (void *)(long)v;
}
int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, reader, 0);
  pthread_create(&b, 0, reader, 0);
  pthread_rwlock_rdlock(&rw);
  data = 1;
  pthread_rwlock_unlock(&rw);
  pthread_join(a, 0);
  pthread_join(b, 0);
  return 0;
}
