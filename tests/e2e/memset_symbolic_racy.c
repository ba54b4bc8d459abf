#include <pthread.h>
#include <string.h>
char buf[16];
unsigned n = 16;
void *clear(void *arg) {
  memset(buf, 0, n);
  return 0;
}
void *last(void *arg) {
  char c = buf[15];
  return (void *)(long)c;
}
int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, clear, 0);
  pthread_create(&b, 0, last, 0);
  pthread_join(a, 0);
  pthread_join(b, 0);
  return 0;
}
