/* A small fixed-size thread pool: the benchmark program of `cargo bench --bench threadpool`
   (issue 17: a race that needs 3 rounds in a thread-pool harness of about 400 lines).
   Written for ladr's benchmarks; the shape follows the common C thread pools: a job queue
   under one mutex, workers sleeping on a condition variable, and a wait-for-idle call. */
#ifndef POOL_H
#define POOL_H

#include <pthread.h>
#include <stddef.h>

typedef void (*pool_fn)(void *arg);

enum pool_state { POOL_RUNNING, POOL_DRAINING, POOL_STOPPED };

struct pool_job {
  pool_fn fn;
  void *arg;
  struct pool_job *next;
};

struct pool_queue {
  struct pool_job *head;
  struct pool_job *tail;
  int length;
  int capacity;
};

struct pool_stats {
  unsigned long submitted;
  unsigned long completed;
  unsigned long rejected;
  int peak_length;
};

struct pool {
  pthread_t *threads;
  int nthreads;
  int alive;
  int working;
  enum pool_state state;
  struct pool_queue queue;
  struct pool_stats stats;
  pthread_mutex_t lock;
  pthread_cond_t has_jobs;
  pthread_cond_t all_idle;
  char name[16];
};

int pool_init(struct pool *p, int nthreads, int capacity, const char *name);
int pool_submit(struct pool *p, pool_fn fn, void *arg);
void pool_wait(struct pool *p);
void pool_destroy(struct pool *p);
int pool_working(struct pool *p);
void pool_snapshot(struct pool *p, struct pool_stats *out);

#endif
