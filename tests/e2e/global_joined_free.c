#include <pthread.h>
int x;
void *w(void *a) { x = 1; return 0; }
void *r(void *a) { int v; v = x; return 0; }
int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, w, 0);
  pthread_join(a, 0);
  pthread_create(&b, 0, r, 0);
  pthread_join(b, 0);
  return 0;
}
