// A race in the first iteration of two loops of a constant bound: the producer fills
// `data` while main sums it without waiting. The constant-loop probe finds it with both
// loops cut after 2 iterations instead of unwound 40 times.
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
  int sum = 0;
  for (int i = 0; i < 40; i++)
    sum += data[i];
  pthread_join(t, 0);
  return sum == 0;
}
