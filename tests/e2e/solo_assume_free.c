#include <pthread.h>
#include <stdlib.h>
extern void __VERIFIER_assume(int);
int *data;
int n;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
void *worker(void *a) {
  pthread_mutex_lock(&m);
  data[0] = data[0] + 1;
  pthread_mutex_unlock(&m);
  return 0;
}
int main(void) {
  pthread_t t1, t2;
  n = 2;
  data = malloc(sizeof(int) * 2);
  __VERIFIER_assume(data != 0);
  __VERIFIER_assume(n > 0);
  data[0] = 0;
  pthread_create(&t1, 0, worker, 0);
  pthread_create(&t2, 0, worker, 0);
  pthread_join(t1, 0);
  pthread_join(t2, 0);
  __VERIFIER_assume(data[0] == 2);
  return 0;
}
