#include <pthread.h>
int x;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
void *reader(void *p) {
  pthread_rwlock_rdlock((pthread_rwlock_t *)&m);
  int v = x;
  pthread_rwlock_unlock((pthread_rwlock_t *)&m);
  return 0;
}
void *writer(void *p) {
  pthread_mutex_lock(&m);
  x = 1;
  pthread_mutex_unlock(&m);
  return 0;
}
int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, reader, 0);
  pthread_create(&b, 0, writer, 0);
  return 0;
}
