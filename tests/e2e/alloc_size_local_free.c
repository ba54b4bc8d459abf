#include <pthread.h>
#include <stdlib.h>
int *table;
int hits;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static int *init(int n) {
  int *a = malloc(n * sizeof *a); /* n * 4 bytes: a constant once init(512) is inlined */
  for (int i = 0; i < n; i++)
    a[i] = 0;
  return a;
}
void *worker(void *p) {
  pthread_mutex_lock(&m);
  hits++;
  pthread_mutex_unlock(&m);
  return 0;
}
int main(void) {
  table = init(512);
  pthread_t a, b;
  pthread_create(&a, 0, worker, 0);
  pthread_create(&b, 0, worker, 0);
  pthread_join(a, 0);
  pthread_join(b, 0);
  return 0;
}
