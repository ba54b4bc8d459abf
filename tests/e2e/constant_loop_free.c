// The twin of constant_loop_racy.c: main sums `data` only after joining the producer. The
// probe (loops cut after 2 iterations) finds no race; the answer is that of the first
// bound pair, with both loops unwound completely (no cut).
#include <pthread.h>
int data[40];
void *producer(void *arg) {
  for (int i = 0; i < 40; i++)
    data[i] = i + 1;
  return 0;
}
int main(void) {
  pthread_t t;
  pthread_create(&t, 0, producer, 0);
  pthread_join(t, 0);
  int sum = 0;
  for (int i = 0; i < 40; i++)
    sum += data[i];
  return sum == 0;
}
