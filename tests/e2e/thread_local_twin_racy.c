#include <pthread.h>
int counter;
void *t(void *p) { counter = counter + 1; return 0; }
int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, t, 0);
  pthread_create(&b, 0, t, 0);
  pthread_join(a, 0);
  pthread_join(b, 0);
  counter = counter + 1;
  return 0;
}
