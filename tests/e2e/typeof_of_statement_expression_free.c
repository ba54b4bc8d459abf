#include <pthread.h>
#include <stdatomic.h>
unsigned _Atomic state;
int data;
void *reader(void *arg) {
  /* atomic_load_explicit is a statement expression: its temporary's type names it. */
  if (__builtin_expect((atomic_load_explicit(&state, memory_order_relaxed) & 1u) != 0, 0))
    data++;
  return 0;
}
int main(void) {
  pthread_t a;
  pthread_create(&a, 0, reader, 0);
  pthread_join(a, 0);
  atomic_store_explicit(&state, 1u, memory_order_relaxed);
  data++;
  return 0;
}
