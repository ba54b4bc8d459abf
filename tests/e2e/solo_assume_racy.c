#include <pthread.h>
#include <stdlib.h>
int *data;
int n;
void *worker(void *a) {
  data[0] = data[0] + 1;
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
