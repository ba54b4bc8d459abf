#include <pthread.h>
#include "mq.h"

static void *adder(void *arg) {
  stats_add(2);
  return 0;
}

int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, adder, 0);
  pthread_create(&b, 0, adder, 0);
  long t = stats_read();
  pthread_join(a, 0);
  pthread_join(b, 0);
  return (int)t;
}
