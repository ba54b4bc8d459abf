#include <pthread.h>
#include <stdlib.h>
int *h;
int a[4];
void *worker(void *arg) {
  long k = (long)arg;
  a[h[k]] = 1;
  return 0;
}
int main(void) {
  pthread_t t1, t2;
  h = calloc(4, sizeof(int));
  h[1] = 3;
  h[2] = 3;
  pthread_create(&t1, 0, worker, (void *)1);
  pthread_create(&t2, 0, worker, (void *)2);
  pthread_join(t1, 0);
  pthread_join(t2, 0);
  return 0;
}
