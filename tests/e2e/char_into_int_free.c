#include <pthread.h>
int x;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
void *w(void *p) { pthread_mutex_lock(&m); *((char *)&x + 1) = 7; pthread_mutex_unlock(&m); return 0; }
void *r(void *p) { int v; pthread_mutex_lock(&m); v = x; pthread_mutex_unlock(&m); return 0; }
int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, w, 0);
  pthread_create(&b, 0, r, 0);
  return 0;
}
