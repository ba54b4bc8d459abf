#include <pthread.h>
typedef struct { void (*fn)(void *); void *arg; } task_t;
int counter;
void *job(void *a) { counter++; return a; }
task_t task = { (void (*)(void *))job, 0 };
void *worker(void *p) { task_t *t = p; t->fn(t->arg); return 0; }
int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, worker, &task);
  pthread_create(&b, 0, worker, &task);
  return 0;
}
