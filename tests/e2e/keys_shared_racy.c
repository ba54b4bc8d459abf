#include <pthread.h>
#include <stdlib.h>
pthread_key_t key;
int *shared;
void *t(void *p) {
  pthread_setspecific(key, shared);
  int *q = pthread_getspecific(key);
  *q = 1;
  return 0;
}
int main(void) {
  pthread_key_create(&key, NULL);
  shared = malloc(sizeof(int));
  pthread_t a, b;
  pthread_create(&a, 0, t, 0);
  pthread_create(&b, 0, t, 0);
  return 0;
}
