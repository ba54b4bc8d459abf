// The twin: the handler counts without the lock, through the pointer the braced
// initialiser put into each thread's event. `events` races.
#include <pthread.h>
struct event { int kind; int *counter; };
pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
int events;
void handle(struct event e) {
  pthread_mutex_lock(&lock);
  pthread_mutex_unlock(&lock);
  *e.counter += e.kind;
}
void *worker(void *arg) {
  struct event e = {1, &events};
  handle(e);
  return 0;
}
int main(void) {
  pthread_t t[2];
  for (int i = 0; i < 2; i++)
    pthread_create(&t[i], 0, worker, 0);
  for (int i = 0; i < 2; i++)
    pthread_join(t[i], 0);
  return events;
}
