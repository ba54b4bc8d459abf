#include <pthread.h>
struct stats { int pushes; int peak; } s;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
void *push(void *arg) {
  pthread_mutex_lock(&m);
  s.pushes++;
  pthread_mutex_unlock(&m);
  if (s.pushes > s.peak)
    s.peak = s.pushes;
  return 0;
}
int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, push, 0);
  pthread_create(&b, 0, push, 0);
  pthread_join(a, 0);
  pthread_join(b, 0);
  return 0;
}
