#include <pthread.h>
int x;
pthread_rwlock_t rw = PTHREAD_RWLOCK_INITIALIZER;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
void *w(void *a) {
  pthread_rwlock_wrlock(&rw);
  x = 1;
  pthread_rwlock_unlock(&rw);
  return 0;
}
void *r(void *a) {
  pthread_mutex_lock(&m);
  int v = x;
  pthread_mutex_unlock(&m);
  return 0;
}
int main(void) {
  pthread_t t1, t2;
  pthread_create(&t1, 0, w, 0);
  pthread_create(&t2, 0, r, 0);
  return 0;
}
