// A wait with a time limit may time out: the write after it is then unordered with the
// thread's write (ladr modelled sem_timedwait as sem_wait, which never times out: "no
// race"). pthread_atfork only registers handlers for fork.
#include <pthread.h>
#include <semaphore.h>
#include <time.h>
int x;
sem_t s;
void prepare(void) {}
void *t(void *a) {
  x = 1;
  sem_post(&s);
  return 0;
}
int main(void) {
  pthread_t h;
  struct timespec ts = {0, 0};
  sem_init(&s, 0, 0);
  pthread_atfork(prepare, 0, 0);
  pthread_create(&h, 0, t, 0);
  sem_timedwait(&s, &ts);
  x = 2;
  pthread_join(h, 0);
  return 0;
}
