#include <pthread.h>
int x, y;
void *writer(void *arg) {
  x = 1;
  return 0;
}
void *reader(void *arg) {
  int r = y + x + y;
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
