// A label that no goto names (`done:`) jumps nothing back over the join: the write after
// it runs alone.
#include <pthread.h>
#include <stdlib.h>
int data;
void *worker(void *p) {
  data = 1;
  return 0;
}
int main(void) {
  pthread_t t;
  pthread_create(&t, 0, worker, 0);
  if (rand() == 7)
    abort();
  pthread_join(t, 0);
done:
  data = 2;
  return data;
}
