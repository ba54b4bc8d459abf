#include <pthread.h>
int result;
void *worker(void *a) {
  result = 42;
  return 0;
}
int main(void) {
  pthread_t t;
  if (pthread_create(&t, 0, worker, 0))
    return 1;
  result = result + 1;
  if (pthread_join(t, 0))
    return 1;
  return 0;
}
