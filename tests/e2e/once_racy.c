#include <pthread.h>
int config;
pthread_once_t once = PTHREAD_ONCE_INIT;
void init(void) { config = 42; }
void *user(void *a) { pthread_once(&once, init); return 0; }
void *peek(void *a) { int v = config; return 0; }
int main(void) {
  pthread_t t1, t2;
  pthread_create(&t1, 0, user, 0);
  pthread_create(&t2, 0, peek, 0);
  return 0;
}
