/* The worker's first write races with main's read; with each thread cut after its first
 * visible statement (the prefix probe, `--prefix 1`) the race is still found. */
#include <pthread.h>
int x, z;
void *worker(void *arg) {
  x = 1;
  z = 1;
  z = 2;
  z = 3;
  return arg;
}
int main(void) {
  pthread_t t;
  pthread_create(&t, 0, worker, 0);
  int r = x;
  pthread_join(t, 0);
  z = 4;
  return r + z;
}
