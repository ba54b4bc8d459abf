#include <pthread.h>
#include <stdatomic.h>
/* Every access of an _Atomic object is atomic: ++, -- and compound assignments are
 * atomic read-modify-writes, through a pointer too; <stdatomic.h>'s operations as well. */
_Atomic int hits;
_Atomic(long) total;
atomic_int counter;
void *t(void *arg) {
  hits++;
  hits += 2;
  total -= 1;
  atomic_int *p = &counter;
  (*p)++;
  atomic_fetch_add(&counter, 1);
  atomic_store(&counter, atomic_load(&counter) + hits);
  return 0;
}
int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, t, 0);
  pthread_create(&b, 0, t, 0);
  return 0;
}
