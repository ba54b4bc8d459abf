#include <pthread.h>
#include <semaphore.h>
sem_t never;
int y;
void *stuck(void *a) {
  sem_wait(&never);
  return 0;
}
void *writer(void *a) {
  y = 1;
  return 0;
}
int main(void) {
  pthread_t s, w;
  sem_init(&never, 0, 0);
  pthread_create(&s, 0, stuck, 0);
  pthread_create(&w, 0, writer, 0);
  pthread_cancel(s);
  pthread_join(s, 0);
  return y;
}
