// The twin: a release store read by an acquire load orders the write before the read,
// so the accesses of `data` never race (C11 5.1.2.4).
#include <pthread.h>
#include <stdatomic.h>
int data;
atomic_int ready;
void *producer(void *arg) {
  data = 42;
  atomic_store_explicit(&ready, 1, memory_order_release);
  return 0;
}
int main(void) {
  pthread_t t;
  pthread_create(&t, 0, producer, 0);
  if (atomic_load_explicit(&ready, memory_order_acquire))
    data++;
  pthread_join(t, 0);
  return 0;
}
