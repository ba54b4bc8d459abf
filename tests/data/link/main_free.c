#define _GNU_SOURCE
#include <stdint.h>
#include <sys/select.h>
#include <pthread.h>
extern int shared;
intptr_t q;
fd_set set;
void *worker(void *arg);
int main(void) {
  pthread_t t;
  pthread_create(&t, 0, worker, 0);
  pthread_join(t, 0);
  shared++;
  return 0;
}
