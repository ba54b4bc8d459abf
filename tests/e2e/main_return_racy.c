#include <pthread.h>
int g;
void *t(void *p) { g = 1; return 0; }
int main(void) {
  pthread_t a;
  pthread_create(&a, 0, t, 0);
  return g;
}
