#include <pthread.h>
int *shared;
static void fill(int *b) { for (int i = 0; i < 2; i++) b[i] = i; }
void *t(void *arg) {
  shared[1] = 7;
  return 0;
}
int main(void) {
  int buf[4];
  int *p = buf;
  fill(p);
  shared = p;
  pthread_t x;
  pthread_create(&x, 0, t, 0);
  p[1] = 3;
  pthread_join(x, 0);
  return buf[1];
}
