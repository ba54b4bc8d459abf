// Each thread builds its own event from a braced initialiser (`normalise` makes it a
// compound literal copied into the local) and hands a copy to a handler that counts events
// under the lock. The proof reads the literal as its initialisers: race-free.
#include <pthread.h>
struct event { int kind; int *counter; };
pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
int events;
void handle(struct event e) {
  pthread_mutex_lock(&lock);
  *e.counter += e.kind;
  pthread_mutex_unlock(&lock);
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
