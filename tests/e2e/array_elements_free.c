#include <pthread.h>
int a[2];
void *t0(void *p) { a[0] = 1; return 0; }
void *t1(void *p) { a[1] = 2; return 0; }
int main(void) {
  pthread_t x, y;
  pthread_create(&x, 0, t0, 0);
  pthread_create(&y, 0, t1, 0);
  return 0;
}
