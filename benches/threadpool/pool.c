/* The thread pool of pool.h. */
#include "pool.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int pool_debug;

static void pool_log(const struct pool *p, const char *fmt, ...)
{
  va_list ap;
  if (!pool_debug)
    return;
  fprintf(stderr, "[%s] ", p->name);
  va_start(ap, fmt);
  vfprintf(stderr, fmt, ap);
  va_end(ap);
  fputc('\n', stderr);
}

/* ---- the job queue (callers hold p->lock) ---- */

static void queue_init(struct pool_queue *q, int capacity)
{
  q->head = NULL;
  q->tail = NULL;
  q->length = 0;
  q->capacity = capacity;
}

static int queue_push(struct pool_queue *q, struct pool_job *job)
{
  if (q->capacity > 0 && q->length >= q->capacity)
    return -1;
  job->next = NULL;
  if (q->tail)
    q->tail->next = job;
  else
    q->head = job;
  q->tail = job;
  q->length++;
  return 0;
}

static struct pool_job *queue_pop(struct pool_queue *q)
{
  struct pool_job *job = q->head;
  if (!job)
    return NULL;
  q->head = job->next;
  if (!q->head)
    q->tail = NULL;
  q->length--;
  return job;
}

static void queue_clear(struct pool_queue *q)
{
  struct pool_job *job;
  while ((job = queue_pop(q)) != NULL)
    free(job);
}

/* ---- workers ---- */

struct worker_arg {
  struct pool *pool;
  int id;
};

static struct pool_job *next_job(struct pool *p)
{
  struct pool_job *job;
  pthread_mutex_lock(&p->lock);
  while (p->queue.length == 0 && p->state == POOL_RUNNING)
    pthread_cond_wait(&p->has_jobs, &p->lock);
  job = queue_pop(&p->queue);
  if (job)
    p->working++;
  pthread_mutex_unlock(&p->lock);
  return job;
}

static void job_done(struct pool *p)
{
  pthread_mutex_lock(&p->lock);
  p->working--;
  p->stats.completed++;
  if (p->working == 0 && p->queue.length == 0)
    pthread_cond_broadcast(&p->all_idle);
  pthread_mutex_unlock(&p->lock);
}

static void *worker_main(void *arg)
{
  struct worker_arg *wa = arg;
  struct pool *p = wa->pool;
  int id = wa->id;
  struct pool_job *job;

  free(wa);
  pthread_mutex_lock(&p->lock);
  p->alive++;
  pthread_mutex_unlock(&p->lock);
  pool_log(p, "worker %d up", id);

  while ((job = next_job(p)) != NULL) {
    job->fn(job->arg);
    free(job);
    job_done(p);
  }

  pthread_mutex_lock(&p->lock);
  p->alive--;
  if (p->alive == 0)
    pthread_cond_broadcast(&p->all_idle);
  pthread_mutex_unlock(&p->lock);
  pool_log(p, "worker %d down", id);
  return NULL;
}

/* ---- the pool ---- */

int pool_init(struct pool *p, int nthreads, int capacity, const char *name)
{
  int i;
  if (nthreads <= 0)
    return -1;
  memset(p, 0, sizeof *p);
  strncpy(p->name, name ? name : "pool", sizeof p->name - 1);
  queue_init(&p->queue, capacity);
  p->state = POOL_RUNNING;
  if (pthread_mutex_init(&p->lock, NULL) != 0)
    return -1;
  pthread_cond_init(&p->has_jobs, NULL);
  pthread_cond_init(&p->all_idle, NULL);
  p->threads = calloc((size_t)nthreads, sizeof *p->threads);
  if (!p->threads)
    return -1;
  for (i = 0; i < nthreads; i++) {
    struct worker_arg *wa = malloc(sizeof *wa);
    if (!wa)
      break;
    wa->pool = p;
    wa->id = i;
    if (pthread_create(&p->threads[i], NULL, worker_main, wa) != 0) {
      free(wa);
      break;
    }
  }
  p->nthreads = i;
  if (i == 0) {
    free(p->threads);
    return -1;
  }
  pool_log(p, "%d workers", i);
  return 0;
}

int pool_submit(struct pool *p, pool_fn fn, void *arg)
{
  struct pool_job *job;
  int rc;
  if (!fn)
    return -1;
  job = malloc(sizeof *job);
  if (!job)
    return -1;
  job->fn = fn;
  job->arg = arg;
  pthread_mutex_lock(&p->lock);
  if (p->state != POOL_RUNNING) {
    p->stats.rejected++;
    pthread_mutex_unlock(&p->lock);
    free(job);
    return -1;
  }
  rc = queue_push(&p->queue, job);
  if (rc == 0) {
    p->stats.submitted++;
    if (p->queue.length > p->stats.peak_length)
      p->stats.peak_length = p->queue.length;
    pthread_cond_signal(&p->has_jobs);
  } else {
    p->stats.rejected++;
  }
  pthread_mutex_unlock(&p->lock);
  if (rc != 0)
    free(job);
  return rc;
}

void pool_wait(struct pool *p)
{
  pthread_mutex_lock(&p->lock);
  while (p->queue.length > 0 || p->working > 0)
    pthread_cond_wait(&p->all_idle, &p->lock);
  pthread_mutex_unlock(&p->lock);
}

int pool_working(struct pool *p)
{
  int n;
  pthread_mutex_lock(&p->lock);
  n = p->working;
  pthread_mutex_unlock(&p->lock);
  return n;
}

void pool_snapshot(struct pool *p, struct pool_stats *out)
{
  pthread_mutex_lock(&p->lock);
  *out = p->stats;
  pthread_mutex_unlock(&p->lock);
}

void pool_destroy(struct pool *p)
{
  int i;
  pthread_mutex_lock(&p->lock);
  p->state = POOL_DRAINING;
  pthread_cond_broadcast(&p->has_jobs);
  pthread_mutex_unlock(&p->lock);
  for (i = 0; i < p->nthreads; i++)
    pthread_join(p->threads[i], NULL);
  pthread_mutex_lock(&p->lock);
  queue_clear(&p->queue);
  p->state = POOL_STOPPED;
  pthread_mutex_unlock(&p->lock);
  pthread_cond_destroy(&p->has_jobs);
  pthread_cond_destroy(&p->all_idle);
  pthread_mutex_destroy(&p->lock);
  free(p->threads);
  p->threads = NULL;
  pool_log(p, "stopped");
}
