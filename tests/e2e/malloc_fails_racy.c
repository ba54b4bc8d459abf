#include <pthread.h>
#include <stdlib.h>
int failures;
void *worker(void *p) {
  int *b = malloc(sizeof(int));
  if (!b) {
    failures++;
    return 0;
  }
  *b = 1;
  free(b);
  return 0;
}
int main(void) {
  pthread_t t;
  pthread_create(&t, 0, worker, 0);
  int seen = failures;
  pthread_join(t, 0);
  return seen;
}
