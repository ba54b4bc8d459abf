// The join loop stops one short: the last thread may still write `area` as `main` reads it.
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
  for (i = 0; i < n - 1; i++)
    pthread_join(threads[i], 0);
  return area;
}
