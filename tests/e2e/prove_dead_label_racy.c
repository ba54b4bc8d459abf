// The twin: a goto to the label skips the join, and the write runs beside the
// worker.
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
    goto done;
  pthread_join(t, 0);
done:
  data = 2;
  return data;
}
