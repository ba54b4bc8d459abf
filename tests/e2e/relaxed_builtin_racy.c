// The same with gcc's builtins: a relaxed store and load order nothing.
#include <pthread.h>
int data, flag;
void *producer(void *arg) {
  data = 1;
  __atomic_store_n(&flag, 1, __ATOMIC_RELAXED);
  return 0;
}
int main(void) {
  pthread_t t;
  pthread_create(&t, 0, producer, 0);
  while (!__atomic_load_n(&flag, __ATOMIC_RELAXED))
    ;
  data = 2;
  pthread_join(t, 0);
  return 0;
}
