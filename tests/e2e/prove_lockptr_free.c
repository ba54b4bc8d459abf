// A lock reached through a pointer: `main`'s guard, handed to the workers as their
// argument, holds its own mutex, which `enter` locks through its parameter. The pointer
// may point to `g` alone, always at its start: the lock is `g.lock`.
#include <pthread.h>
struct guard {
  pthread_mutex_t lock;
  int uses;
};
int hits;
void enter(struct guard *p) {
  pthread_mutex_lock(&p->lock);
  p->uses++;
  hits++;
  pthread_mutex_unlock(&p->lock);
}
void *worker(void *arg) {
  enter(arg);
  return 0;
}
int main(void) {
  struct guard g;
  pthread_t a, b;
  pthread_mutex_init(&g.lock, 0);
  g.uses = 0;
  pthread_create(&a, 0, worker, &g);
  pthread_create(&b, 0, worker, &g);
  enter(&g);
  pthread_join(a, 0);
  pthread_join(b, 0);
  return hits + g.uses;
}
