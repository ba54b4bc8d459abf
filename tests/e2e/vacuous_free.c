#include <pthread.h>
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
int n = 4; /* written below: not a constant bound */
int x;
void *w(void *p) {
  pthread_mutex_lock(&m);
  x = x + 1;
  pthread_mutex_unlock(&m);
  return 0;
}
int main(void) {
  int i, ready = 0;
  for (i = 0; i < n; i++) /* 4 iterations before the threads start */
    ready++;
  pthread_t a, b;
  pthread_create(&a, 0, w, 0);
  pthread_create(&b, 0, w, 0);
  n = ready;
  while (1) /* main never ends: not vacuous once the threads start */
    ;
  return 0;
}
