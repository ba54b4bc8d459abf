// The twin: each worker is handed a guard of its own, so `enter`'s pointer may point
// to `g` or to `h`: two mutexes, no lock. `hits` races.
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
  struct guard g, h;
  pthread_t a, b;
  pthread_mutex_init(&g.lock, 0);
  pthread_mutex_init(&h.lock, 0);
  g.uses = 0;
  h.uses = 0;
  pthread_create(&a, 0, worker, &g);
  pthread_create(&b, 0, worker, &h);
  pthread_join(a, 0);
  pthread_join(b, 0);
  return hits + g.uses + h.uses;
}
