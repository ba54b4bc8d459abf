// The twin: `out` is `in`, one block with two owners: a worker's unlocked read of `in`
// races with the other's locked update through `out`.
#include <pthread.h>
#include <stdlib.h>
int *in, *out;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
int *fresh(int n) {
  int *b;
  b = malloc(n * sizeof(int));
  for (int i = 0; i < n; i++)
    b[i] = i;
  return b;
}
void *worker(void *p) {
  int v = in[1];
  pthread_mutex_lock(&m);
  out[1] = out[1] + v;
  pthread_mutex_unlock(&m);
  return 0;
}
int main(void) {
  pthread_t a, b;
  in = fresh(2);
  out = in;
  pthread_create(&a, 0, worker, 0);
  pthread_create(&b, 0, worker, 0);
  pthread_join(a, 0);
  pthread_join(b, 0);
  return out[1];
}
