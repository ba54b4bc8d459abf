#include <pthread.h>
int x;
pthread_mutex_t m = PTHREAD_RECURSIVE_MUTEX_INITIALIZER_NP;
void *twice(void *a) {
  pthread_mutex_lock(&m);
  pthread_mutex_lock(&m);
  pthread_mutex_unlock(&m);
  pthread_mutex_unlock(&m);
  x = 1;
  return 0;
}
void *locked(void *a) {
  pthread_mutex_lock(&m);
  x = 2;
  pthread_mutex_unlock(&m);
  return 0;
}
int main(void) {
  pthread_t t1, t2;
  pthread_create(&t1, 0, twice, 0);
  pthread_create(&t2, 0, locked, 0);
  return 0;
}
