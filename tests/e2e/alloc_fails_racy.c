#include <pthread.h>
#include <stdlib.h>
#include <string.h>
int aligned_failed, strdup_failed, memalign_failed;
void *worker(void *p) {
  void *a = aligned_alloc(16, 32);
  char *s = strdup("ab");
  void *m = 0;
  int e = posix_memalign(&m, 16, 32);
  if (!a)
    aligned_failed = 1;
  if (!s)
    strdup_failed = 1;
  if (e)
    memalign_failed = 1;
  free(a);
  free(s);
  free(m);
  return 0;
}
int main(void) {
  pthread_t t;
  pthread_create(&t, 0, worker, 0);
  int seen = aligned_failed + strdup_failed + memalign_failed;
  pthread_join(t, 0);
  return seen;
}
