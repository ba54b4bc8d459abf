#include <pthread.h>
#include <stdlib.h>
static char shared[8];
static void *worker(void *arg) {
  size_t n = *(size_t *)arg;
  char *block = malloc(n); /* n = 200 or 300: more than the default 128-byte block */
  shared[0] = 1;           /* the race, after the allocation */
  free(block);
  return NULL;
}
int main(void) {
  size_t n[2] = {200, 300};
  pthread_t t[2];
  for (int i = 0; i < 2; i++)
    pthread_create(&t[i], 0, worker, &n[i]);
  for (int i = 0; i < 2; i++)
    pthread_join(t[i], 0);
  return 0;
}
