#include <pthread.h>
int n = 4; /* written below: not a constant bound */
int x;
void *w(void *p) { x = x + 1; return 0; }
int main(void) {
  int i, ready = 0;
  for (i = 0; i < n; i++) /* 4 iterations before the threads start */
    ready++;
  pthread_t a, b;
  pthread_create(&a, 0, w, 0);
  pthread_create(&b, 0, w, 0);
  n = ready;
  return 0;
}
