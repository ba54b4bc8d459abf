// The twin: sequentially consistent operations order the write before the read.
#include <pthread.h>
int data, flag;
void *producer(void *arg) {
  data = 1;
  __atomic_store_n(&flag, 1, __ATOMIC_SEQ_CST);
  return 0;
}
int main(void) {
  pthread_t t;
  pthread_create(&t, 0, producer, 0);
  while (!__atomic_load_n(&flag, __ATOMIC_SEQ_CST))
    ;
  data = 2;
  pthread_join(t, 0);
  return 0;
}
