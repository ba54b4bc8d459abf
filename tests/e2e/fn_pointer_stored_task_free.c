#include <pthread.h>
typedef struct { void (*fn)(void *); void *arg; } task_t;
int counter;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
void job(void *a) { pthread_mutex_lock(&m); counter++; pthread_mutex_unlock(&m); }
task_t task = { job, 0 };
void *worker(void *p) { task_t *t = p; t->fn(t->arg); return 0; }
int main(void) {
  pthread_t a, b;
  void *(*start)(void *) = worker;
  pthread_create(&a, 0, start, &task);
  pthread_create(&b, 0, worker, &task);
  return 0;
}
