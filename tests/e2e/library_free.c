#include <pthread.h>
#include <string.h>
char buf[8];
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
void *w(void *p) { pthread_mutex_lock(&m); memset(buf, 0, sizeof buf); pthread_mutex_unlock(&m); return 0; }
void *r(void *p) { pthread_mutex_lock(&m); char c = buf[0]; pthread_mutex_unlock(&m); return 0; }
int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, w, 0);
  pthread_create(&b, 0, r, 0);
  return 0;
}
