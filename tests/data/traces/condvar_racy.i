# 1 "mini_pthread.h"
typedef unsigned long pthread_t;
typedef struct { int __lock; int __pad[9]; } pthread_mutex_t;
typedef struct { int __state; int __pad[11]; } pthread_cond_t;
int pthread_create(pthread_t *, const void *, void *(*)(void *), void *);
int pthread_join(pthread_t, void **);
int pthread_mutex_lock(pthread_mutex_t *);
int pthread_mutex_unlock(pthread_mutex_t *);
int pthread_cond_wait(pthread_cond_t *, pthread_mutex_t *);
int pthread_cond_signal(pthread_cond_t *);
# 2 "condvar_racy.c"
int data, ready;
pthread_mutex_t m = { 0 };
pthread_cond_t c = { 0 };
void *producer(void *p) {
  data = 42;
  pthread_mutex_lock(&m);
  ready = 1;
  pthread_cond_signal(&c);
  pthread_mutex_unlock(&m);
  data = 43;
  return 0;
}
void *consumer(void *p) {
  pthread_mutex_lock(&m);
  while (!ready)
    pthread_cond_wait(&c, &m);
  pthread_mutex_unlock(&m);
  int v = data;
  return 0;
}
int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, producer, 0);
  pthread_create(&b, 0, consumer, 0);
  return 0;
}
