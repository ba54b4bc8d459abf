#include <pthread.h>
int counter;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
void add(int k) {
  pthread_mutex_lock(&m);
  counter = counter + k;
  pthread_mutex_unlock(&m);
}
void add_unlocked(int k) { counter = counter + k; }
struct ops { void (*apply)(int); };
struct ops table = { add };
void *worker(void *a) {
  table.apply(1);
  return 0;
}
int main(void) {
  pthread_t t1, t2;
  table.apply = add_unlocked;
  pthread_create(&t1, 0, worker, 0);
  pthread_create(&t2, 0, worker, 0);
  return 0;
}
