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
# 2 "mutex_racy.c"
int counter;
pthread_mutex_t m = { 0 };
void *inc(void *a) {
  pthread_mutex_lock(&m);
  counter = counter + 1;
  pthread_mutex_unlock(&m);
  return 0;
}
void *peek(void *a) { int v = counter; return 0; }
int main(void) {
  pthread_t t1, t2;
  pthread_create(&t1, 0, inc, 0);
  pthread_create(&t2, 0, peek, 0);
  return 0;
}
