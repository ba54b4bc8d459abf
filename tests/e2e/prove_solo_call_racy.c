// The twin: main calls the helper after the creates, with no lock, beside the
// workers.
#include <pthread.h>
int data;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
void bump(void) { data++; }
void *worker(void *p) {
  pthread_mutex_lock(&m);
  bump();
  pthread_mutex_unlock(&m);
  return 0;
}
int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, worker, 0);
  pthread_create(&b, 0, worker, 0);
  bump();
  pthread_join(a, 0);
  pthread_join(b, 0);
  return data;
}
