#include <pthread.h>
extern int __VERIFIER_nondet_int(void);
int shared;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
void *t(void *p) {
  int n = __VERIFIER_nondet_int();
  for (int i = 0; i < n; i++) {
    shared++;
  }
  return 0;
}
int main(void) {
  pthread_t a;
  pthread_create(&a, 0, t, 0);
  pthread_mutex_lock(&m);
  shared = 5;
  pthread_mutex_unlock(&m);
  pthread_join(a, 0);
  return 0;
}
