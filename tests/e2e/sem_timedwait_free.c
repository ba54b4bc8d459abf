// The twin: the write comes only after a wait that took the semaphore, which orders it
// after the thread's write.
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
  if (sem_timedwait(&s, &ts) == 0)
    x = 2;
  pthread_join(h, 0);
  return 0;
}
