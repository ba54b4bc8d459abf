#include <pthread.h>
_Thread_local int mine;
int *published;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
void *t(void *p) {
  pthread_mutex_lock(&m);
  published = &mine;
  pthread_mutex_unlock(&m);
  mine = 1;
  return 0;
}
void *u(void *p) {
  pthread_mutex_lock(&m);
  int *q = published;
  pthread_mutex_unlock(&m);
  if (q)
    *q = 2;
  return 0;
}
int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, t, 0);
  pthread_create(&b, 0, u, 0);
  return 0;
}
