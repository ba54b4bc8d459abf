#include <pthread.h>
int n = 2;
unsigned long size;
void *worker(void *p) {
  size = sizeof(int[n]);
  return 0;
}
int main(void) {
  pthread_t t;
  pthread_create(&t, 0, worker, 0);
  n = 3;
  pthread_join(t, 0);
  return 0;
}
