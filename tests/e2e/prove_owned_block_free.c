// Heap blocks told apart by their owner: `in` and `out` each hold a block that no other
// pointer keeps (made by `fresh`), so the workers' unlocked reads of `in` cannot touch
// the block `out` points to, whose elements they update under the lock.
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
  out = fresh(2);
  pthread_create(&a, 0, worker, 0);
  pthread_create(&b, 0, worker, 0);
  pthread_join(a, 0);
  pthread_join(b, 0);
  return out[1];
}
