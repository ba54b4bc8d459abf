#include <pthread.h>
typedef int buf_t[4];
int x;
void set(buf_t b) { b[0] = 1; x = b[0]; }
void *worker(void *arg) {
  buf_t mine;
  set(mine);
  return 0;
}
int main(void) {
  pthread_t t;
  pthread_create(&t, 0, worker, 0);
  x = 5;
  return 0;
}
