#include <pthread.h>
void *result;
void *w(void *a) { return (void *)1; }
void *peek(void *a) { void *v = result; return v; }
int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, w, 0);
  pthread_create(&b, 0, peek, 0);
  pthread_join(a, &result);
  pthread_join(b, 0);
  return 0;
}
