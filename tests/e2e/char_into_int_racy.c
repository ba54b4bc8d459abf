#include <pthread.h>
int x;
void *w(void *p) { *((char *)&x + 1) = 7; return 0; }
void *r(void *p) { int v; v = x; return 0; }
int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, w, 0);
  pthread_create(&b, 0, r, 0);
  return 0;
}
