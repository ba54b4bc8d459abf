// The twin: each thread halves its counter value, so both threads of the loop write
// `sums[0]`.
#include <pthread.h>
int sums[2];
void *worker(void *arg) {
  long tid;
  tid = (long)arg / 2;
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
