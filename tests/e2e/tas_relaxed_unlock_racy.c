#include <pthread.h>
char locked;
int total;
void *adder(void *arg) {
  while (__atomic_test_and_set(&locked, __ATOMIC_ACQUIRE))
    ;
  total += 1;
  __atomic_store_n(&locked, 0, __ATOMIC_RELAXED);
  return arg;
}
int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, adder, 0);
  pthread_create(&b, 0, adder, 0);
  pthread_join(a, 0);
  pthread_join(b, 0);
  return total;
}
