/* memcpy of no bytes into a ring not allocated yet (a null pointer), the head moved
   outside the lock: a race on `ring.head`, whatever CBMC's own memcpy asserts. */
#include <pthread.h>
#include <string.h>
struct ring { char *data; unsigned long head, size; };
struct ring ring;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
void *put(void *p) {
  pthread_mutex_lock(&m);
  memcpy(ring.data, p, 0);
  pthread_mutex_unlock(&m);
  ring.head = ring.head + 1;
  return 0;
}
int main(void) {
  pthread_t a, b;
  static char x;
  pthread_create(&a, 0, put, &x);
  pthread_create(&b, 0, put, &x);
  return 0;
}
