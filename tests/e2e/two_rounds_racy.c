#include <pthread.h>
int x;
void *t(void *p) { x = 1; return 0; }
int main(void) {
  pthread_t a;
  pthread_create(&a, 0, t, 0);
  int v = x;
  return v;
}
