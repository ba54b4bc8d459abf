#include <pthread.h>
int x;
pthread_t spawn(void *(*f)(void *), void *arg) {
  pthread_t t;
  pthread_create(&t, 0, f, arg);
  return t;
}
void *w(void *a) { x = 1; return 0; }
int main(void) {
  spawn(w, 0);
  x = 2;
  return 0;
}
