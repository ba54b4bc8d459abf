// A plain write published by a relaxed store and read after a relaxed load: relaxed
// operations create no happens-before (C11 5.1.2.4), so the two accesses of `data` race.
#include <pthread.h>
#include <stdatomic.h>
int data;
atomic_int ready;
void *producer(void *arg) {
  data = 42;
  atomic_store_explicit(&ready, 1, memory_order_relaxed);
  return 0;
}
int main(void) {
  pthread_t t;
  pthread_create(&t, 0, producer, 0);
  if (atomic_load_explicit(&ready, memory_order_relaxed))
    data++;
  pthread_join(t, 0);
  return 0;
}
