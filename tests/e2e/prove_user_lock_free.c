// A lock the program builds of atomic sections, as SV-COMP's Linux driver models do: the
// acquire waits for the field to be 0 and sets it in one atomic step.
#include <pthread.h>
extern void __VERIFIER_atomic_begin(void);
extern void __VERIFIER_atomic_end(void);
extern void __VERIFIER_assume(int);
struct lock { int held; };
struct lock l;
int count;
void acquire(struct lock *p) {
  __VERIFIER_atomic_begin();
  __VERIFIER_assume(p->held == 0);
  p->held = 1;
  __VERIFIER_atomic_end();
}
void release(struct lock *p) {
  __VERIFIER_atomic_begin();
  p->held = 0;
  __VERIFIER_atomic_end();
}
void *worker(void *arg) {
  acquire(&l);
  count++;
  release(&l);
  return 0;
}
int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, worker, 0);
  pthread_create(&b, 0, worker, 0);
  pthread_join(a, 0);
  pthread_join(b, 0);
  return count;
}
