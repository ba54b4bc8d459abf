#include <pthread.h>
int x;
int y;
void *a(void *arg) {
  x = 1;
  y = 2;
  return 0;
}
void *b(void *arg) {
  x = 3;
  return 0;
}
void *c(void *arg) {
  y = 4;
  return 0;
}
int main(void) {
  pthread_t t1, t2, t3;
  pthread_create(&t1, 0, a, 0);
  pthread_create(&t2, 0, b, 0);
  pthread_create(&t3, 0, c, 0);
  return 0;
}
