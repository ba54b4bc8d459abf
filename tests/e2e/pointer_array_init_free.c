#include <pthread.h>
int a, b;
void *worker(void *arg) {
  int *ptrs[2] = { &a, &b };
  *ptrs[0] = 1;
  return 0;
}
int main(void) {
  pthread_t t;
  pthread_create(&t, 0, worker, 0);
  int *q[2] = { &b, &a };
  *q[0] = 2;
  pthread_join(t, 0);
  *q[1] = 3;
  return 0;
}
