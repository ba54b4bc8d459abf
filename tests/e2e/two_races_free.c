#include <pthread.h>
int x;
int y;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
void *a(void *arg) {
  pthread_mutex_lock(&m);
  x = 1;
  y = 2;
  pthread_mutex_unlock(&m);
  return 0;
}
void *b(void *arg) {
  pthread_mutex_lock(&m);
  x = 3;
  pthread_mutex_unlock(&m);
  return 0;
}
void *c(void *arg) {
  pthread_mutex_lock(&m);
  y = 4;
  pthread_mutex_unlock(&m);
  return 0;
}
int main(void) {
  pthread_t t1, t2, t3;
  pthread_create(&t1, 0, a, 0);
  pthread_create(&t2, 0, b, 0);
  pthread_create(&t3, 0, c, 0);
  return 0;
}
