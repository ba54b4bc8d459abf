/* memcpy of `size` (0) bytes into a ring not allocated yet (a null pointer), under a lock: CBMC's
   own memcpy asserts that its destination is writeable, which is no race. */
#include <pthread.h>
#include <string.h>
struct ring { char *data; unsigned long head, size; };
struct ring ring;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
void *put(void *p) {
  pthread_mutex_lock(&m);
  memcpy(ring.data + ring.head, p, ring.size);
  ring.head = ring.head + 1;
  pthread_mutex_unlock(&m);
  return 0;
}
int main(void) {
  pthread_t a, b;
  static char x;
  pthread_create(&a, 0, put, &x);
  pthread_create(&b, 0, put, &x);
  return 0;
}
