#include <pthread.h>
int x;
void *w(void *arg) {
  int n = 0;
  {
    if (arg) goto again;
    n = 5;
  again:
    n++;
  }
  if (n < 2) goto again;
  if (n == 2) x = n;
  return 0;
}
int main(void) {
  pthread_t a;
  pthread_create(&a, 0, w, (void *)0);
  x = 1;
  return 0;
}
