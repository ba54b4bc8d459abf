// Both threads use <stdatomic.h>'s atomic_fetch_add, then write `data`: a race. CBMC
// locates its one body of __atomic_fetch_add_S32 at the first call, so the interleaving
// of thread 1 listed main's line 15 (issue 27, item 11).
#include <pthread.h>
#include <stdatomic.h>
atomic_int n;
int data;
void *t(void *a) {
  atomic_fetch_add(&n, 1);
  data = 1;
  return 0;
}
int main(void) {
  pthread_t h;
  pthread_create(&h, 0, t, 0);
  atomic_fetch_add(&n, 2);
  data = 2;
  pthread_join(h, 0);
  return 0;
}
