#include <pthread.h>
#include <stdio.h>
int flag;
void handler(void *arg) { flag = 1; }
void *worker(void *arg) {
  pthread_cleanup_push(handler, arg);
  printf("working\n");
  pthread_cleanup_pop(0);
  return 0;
}
int main(void) {
  pthread_t t;
  pthread_create(&t, 0, worker, 0);
  pthread_cancel(t);
  int seen = flag;
  pthread_join(t, 0);
  return seen;
}
