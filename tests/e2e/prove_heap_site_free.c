// Heap blocks told apart by allocation site: each worker's scratch block never leaves
// the worker (a private site: every block its own thread's), and the block `main`
// hands to both workers is updated under the lock only.
#include <pthread.h>
#include <stdlib.h>
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
void *worker(void *arg) {
  int *total = arg;
  int *scratch = malloc(sizeof(int));
  if (!scratch)
    return 0;
  *scratch = 1;
  pthread_mutex_lock(&m);
  *total = *total + 1;
  pthread_mutex_unlock(&m);
  return 0;
}
int main(void) {
  pthread_t a, b;
  int *total = malloc(sizeof(int));
  *total = 0;
  pthread_create(&a, 0, worker, total);
  pthread_create(&b, 0, worker, total);
  pthread_join(a, 0);
  pthread_join(b, 0);
  return *total;
}
