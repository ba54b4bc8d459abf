#include <pthread.h>
#include <stdlib.h>
void *home(void *arg) {
  char *h = getenv("HOME");
  return h;
}
int main(void) {
  pthread_t a, b;
  setenv("HOME", "/", 1);
  pthread_create(&a, 0, home, 0);
  pthread_create(&b, 0, home, 0);
  pthread_join(a, 0);
  pthread_join(b, 0);
  return 0;
}
