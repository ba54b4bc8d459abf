#include <pthread.h>
int x = 5;
void *t(void *p) { int v; v = x; return 0; }
int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, t, 0);
  pthread_create(&b, 0, t, 0);
  return 0;
}
