/* `bsearch` returns a pointer into its array argument, not a fresh object: the element it
   finds is the one main writes. */
#include <pthread.h>
#include <stdlib.h>
int a[4] = {1, 2, 3, 4};
int key = 3;
static int cmp(const void *x, const void *y) { return *(const int *)x - *(const int *)y; }
void *w(void *arg) {
  int *p = bsearch(&key, a, 4, sizeof(int), cmp);
  if (p) *p = 7;
  return 0;
}
int main(void) {
  pthread_t t;
  pthread_create(&t, 0, w, 0);
  a[2] = 5;
  pthread_join(t, 0);
  return 0;
}
