/* A small message queue: the library ladr's repository-gate tests check. */
#ifndef MQ_H
#define MQ_H
#include <pthread.h>

#ifndef MQ_CAPACITY
#error "build with -DMQ_CAPACITY=N (compile_commands.json has it)"
#endif

struct mq {
  pthread_mutex_t lock;
  int items[MQ_CAPACITY];
  int count;
  int dropped;
};

void mq_init(struct mq *q);
int mq_push(struct mq *q, int v);
int mq_dropped(struct mq *q);

/* Statistics (stats.c). */
extern long mq_total;
void stats_add(int n);
long stats_read(void);
#endif
