// Threads created in one loop each get their own counter value and touch only their own
// element of `sums`; main reads the array once it has joined them all.
#include <pthread.h>
int sums[2];
void *worker(void *arg) {
  long tid;
  tid = (long)arg;
  sums[tid] = sums[tid] + 1;
  return 0;
}
int main(void) {
  pthread_t t[2];
  for (int i = 0; i < 2; i++)
    pthread_create(&t[i], 0, worker, (void *)(long)i);
  for (int i = 0; i < 2; i++)
    pthread_join(t[i], 0);
  return sums[0] + sums[1];
}
