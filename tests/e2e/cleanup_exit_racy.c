#include <pthread.h>
int cleaned, seen;
void handler(void *a) { cleaned = 1; }
void *w(void *a) {
  pthread_cleanup_push(handler, 0);
  if (a) pthread_exit(0);
  pthread_cleanup_pop(0);
  return 0;
}
int main(void) {
  pthread_t t;
  pthread_create(&t, 0, w, &t);
  seen = cleaned;
  pthread_join(t, 0);
  return 0;
}
