#include "mq.h"

/* Each file has its own `clamp`. */
static int clamp(int v) { return v < 0 ? 0 : v; }

void mq_init(struct mq *q) {
  pthread_mutex_init(&q->lock, 0);
  q->count = 0;
  q->dropped = 0;
}

int mq_push(struct mq *q, int v) {
  pthread_mutex_lock(&q->lock);
  if (q->count == MQ_CAPACITY) {
    q->dropped++;
    pthread_mutex_unlock(&q->lock);
    return -1;
  }
  q->items[q->count] = clamp(v);
  q->count++;
  pthread_mutex_unlock(&q->lock);
  stats_add(1);
  return 0;
}

int mq_dropped(struct mq *q) {
  return q->count;
}
