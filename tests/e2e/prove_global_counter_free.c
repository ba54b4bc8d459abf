// Threads created and joined by two loops whose counter is a global only `main` writes,
// the create loop bounded by `nt`, a copy of the join loop's bound `n` (a global the
// threads read): after the join loop `main` runs alone.
#include <pthread.h>
#include <stdlib.h>
extern int __VERIFIER_nondet_int(void);
int n, i, nt;
int area;
pthread_mutex_t m;
void *work(void *arg) {
  pthread_mutex_lock(&m);
  area += n;
  pthread_mutex_unlock(&m);
  return 0;
}
int main(void) {
  pthread_t *threads;
  threads = 0;
  n = __VERIFIER_nondet_int();
  if (n > 2)
    return 0;
  nt = n;
  if (n <= 0)
    return 0;
  threads = (pthread_t *)malloc(sizeof(pthread_t) * n);
  for (i = 0; i < nt; i++)
    pthread_create(&threads[i], 0, work, (void *)0);
  for (i = 0; i < n; i++)
    pthread_join(threads[i], 0);
  return area;
}
