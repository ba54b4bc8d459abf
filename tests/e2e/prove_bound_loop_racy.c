// The twin: the bound shrinks between the loops, the last thread is never joined.
// and main reads beside it.
#include <pthread.h>
#include <stdlib.h>
int data;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
void *worker(void *p) {
  pthread_mutex_lock(&m);
  data++;
  pthread_mutex_unlock(&m);
  return 0;
}
int main(void) {
  int n = 2;
  pthread_t *t = malloc(n * sizeof(pthread_t));
  for (int i = 0; i < n; i++)
    pthread_create(&t[i], 0, worker, 0);
  n--;
  for (int i = 0; i < n; i++)
    pthread_join(t[i], 0);
  free(t);
  return data;
}
