#include <pthread.h>
#include "mq.h"

static struct mq q;

static void *producer(void *arg) {
  mq_push(&q, 1);
  return 0;
}

int main(void) {
  pthread_t t;
  mq_init(&q);
  pthread_create(&t, 0, producer, 0);
  long seen = mq_total;
  int d = mq_dropped(&q);
  pthread_join(t, 0);
  return (int)seen + d;
}
