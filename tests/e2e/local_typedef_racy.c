#include <pthread.h>
int x;
void *worker(void *arg) {
  typedef struct { int v; } box;
  box b;
  b.v = 3;
  x = b.v;
  return 0;
}
int main(void) {
  pthread_t t1, t2;
  pthread_create(&t1, 0, worker, 0);
  pthread_create(&t2, 0, worker, 0);
  return 0;
}
