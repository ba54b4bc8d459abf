#include <errno.h>
#include <pthread.h>
/* Every thread has its own errno. */
int wrong;
int fail(void) {
  errno = EPIPE;
  return -1;
}
void *t(void *arg) {
  if (fail() < 0 && errno != EPIPE)
    wrong = 1;
  return 0;
}
int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, t, 0);
  pthread_create(&b, 0, t, 0);
  return 0;
}
