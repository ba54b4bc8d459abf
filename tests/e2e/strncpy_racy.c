// strncpy with a size computed from sizeof from two threads: a race on `buf` (CBMC once
// aborted on it, issue 27 item 9).
#include <pthread.h>
#include <string.h>
char buf[16];
const char *names[2] = {"alpha", "beta"};
void *t(void *a) {
  strncpy(buf, names[1], sizeof buf - 1);
  return 0;
}
int main(void) {
  pthread_t h;
  pthread_create(&h, 0, t, 0);
  strncpy(buf, names[0], sizeof buf - 1);
  pthread_join(h, 0);
  return 0;
}
