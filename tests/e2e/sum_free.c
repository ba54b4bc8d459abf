#include <pthread.h>
int x, y;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
void *writer(void *arg) {
  pthread_mutex_lock(&m);
  x = 1;
  pthread_mutex_unlock(&m);
  return 0;
}
void *reader(void *arg) {
  pthread_mutex_lock(&m);
  int r = y + x + y;
  pthread_mutex_unlock(&m);
  return (void *)(long)r;
}
int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, reader, 0);
  pthread_create(&b, 0, writer, 0);
  pthread_join(a, 0);
  pthread_join(b, 0);
  return 0;
}
