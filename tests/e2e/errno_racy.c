#include <errno.h>
#include <pthread.h>
int last;
int fail(void) {
  errno = EPIPE;
  return -1;
}
void *t(void *arg) {
  if (fail() < 0 && errno == EPIPE)
    last = errno;
  return 0;
}
int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, t, 0);
  pthread_create(&b, 0, t, 0);
  return 0;
}
