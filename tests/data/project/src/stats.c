#include "mq.h"

static int clamp(int v) { return v > 100 ? 100 : v; }

long mq_total;
static pthread_mutex_t stats_lock = PTHREAD_MUTEX_INITIALIZER;

void stats_add(int n) {
  pthread_mutex_lock(&stats_lock);
  mq_total += clamp(n);
  pthread_mutex_unlock(&stats_lock);
}

long stats_read(void) {
  long t;
  pthread_mutex_lock(&stats_lock);
  t = mq_total;
  pthread_mutex_unlock(&stats_lock);
  return t;
}
