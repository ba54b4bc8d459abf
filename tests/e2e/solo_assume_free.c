#include <pthread.h>
#include <stdlib.h>
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
  if (!data)
    abort();
  if (n <= 0)
    abort();
  data[0] = 0;
  pthread_create(&t1, 0, worker, 0);
  pthread_create(&t2, 0, worker, 0);
  pthread_join(t1, 0);
  pthread_join(t2, 0);
  if (data[0] != 2)
    abort();
  return 0;
}
