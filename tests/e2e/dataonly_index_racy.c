#include <pthread.h>
double c[100];
int j;
void *t(void *p) { j = 5; return p; }
int main(void) {
  pthread_t a;
  pthread_create(&a, 0, t, 0);
  c[j] += 1.0;
  pthread_join(a, 0);
  return 0;
}
