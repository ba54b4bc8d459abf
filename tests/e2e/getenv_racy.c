#include <pthread.h>
#include <stdlib.h>
void *home(void *arg) {
  char *h = getenv("HOME");
  return h;
}
void *move(void *arg) {
  setenv("HOME", "/tmp", 1);
  return 0;
}
int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, home, 0);
  pthread_create(&b, 0, move, 0);
  pthread_join(a, 0);
  pthread_join(b, 0);
  return 0;
}
