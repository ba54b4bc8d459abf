// A semaphore initialised to 1 before the threads, posted only by its holder: a lock.
#include <pthread.h>
#include <semaphore.h>
sem_t s;
int count;
void *worker(void *p) {
  sem_wait(&s);
  count++;
  sem_post(&s);
  return 0;
}
int main(void) {
  pthread_t a, b;
  sem_init(&s, 0, 1);
  pthread_create(&a, 0, worker, 0);
  pthread_create(&b, 0, worker, 0);
  pthread_join(a, 0);
  pthread_join(b, 0);
  return count;
}
