#include <pthread.h>
int x, ready;
pthread_mutex_t m;
void *t(void *p) {
  pthread_mutex_lock(&m);
  ready = 1;
  pthread_mutex_unlock(&m);
  x = 1;
  return 0;
}
int main(void) {
  pthread_t a;
  pthread_create(&a, 0, t, 0);
  pthread_mutex_lock(&m);
  int r = ready;
  pthread_mutex_unlock(&m);
  /* Only after thread a has run (round 1) can main get here (round 2). */
  if (r)
    return x;
  return 0;
}
