// The twin: one scratch block for both workers (`main` allocates it once and hands it
// over in a global): their unlocked writes race.
#include <pthread.h>
#include <stdlib.h>
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
int *shared_scratch;
void *worker(void *arg) {
  int *total = arg;
  int *scratch = shared_scratch;
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
  shared_scratch = malloc(sizeof(int));
  pthread_create(&a, 0, worker, total);
  pthread_create(&b, 0, worker, total);
  pthread_join(a, 0);
  pthread_join(b, 0);
  return *total;
}
