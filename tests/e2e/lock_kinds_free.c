#include <pthread.h>
#include <stdlib.h>
struct queue {
  pthread_mutex_t lock;
  int n;
};
struct queue *q;
pthread_rwlock_t rw = PTHREAD_RWLOCK_INITIALIZER;
pthread_spinlock_t s;
void *producer(void *a) {
  pthread_mutex_lock(&q->lock);
  q->n = q->n + 1;
  pthread_mutex_unlock(&q->lock);
  return 0;
}
void *reader(void *a) {
  pthread_rwlock_rdlock(&rw);
  pthread_mutex_lock(&q->lock);
  pthread_spin_lock(&s);
  int v = q->n;
  pthread_mutex_unlock(&q->lock);
  pthread_spin_unlock(&s);
  pthread_rwlock_unlock(&rw);
  return 0;
}
int main(void) {
  pthread_t t1, t2;
  q = malloc(sizeof *q);
  pthread_mutex_init(&q->lock, 0);
  pthread_spin_init(&s, 0);
  q->n = 0;
  pthread_create(&t1, 0, producer, 0);
  pthread_create(&t2, 0, reader, 0);
  return 0;
}
