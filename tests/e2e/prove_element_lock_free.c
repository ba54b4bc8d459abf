// Each cell's mutex guards the cell's own datum: a worker locks the cell it picked
// through a pointer to it, main through the index, and both only touch that cell.
#include <pthread.h>
extern int __VERIFIER_nondet_int(void);
struct cell {
  int datum;
  pthread_mutex_t mutex;
} cells[2] = {{0, PTHREAD_MUTEX_INITIALIZER}, {0, PTHREAD_MUTEX_INITIALIZER}};
void *worker(void *arg) {
  int i = __VERIFIER_nondet_int() & 1;
  struct cell *p = &cells[i];
  pthread_mutex_lock(&p->mutex);
  i++;
  p->datum++;
  pthread_mutex_unlock(&p->mutex);
  return 0;
}
int main(void) {
  pthread_t t;
  int i = __VERIFIER_nondet_int() & 1;
  pthread_create(&t, 0, worker, 0);
  pthread_mutex_lock(&cells[i].mutex);
  cells[i].datum++;
  pthread_mutex_unlock(&cells[i].mutex);
  pthread_join(t, 0);
  return cells[0].datum;
}
