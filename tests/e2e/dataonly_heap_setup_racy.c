#include <pthread.h>
#include <stdlib.h>
double *base;
void *worker(void *arg) {
  long k = (long)arg;
  double *xa1 = base;
  double *xa2 = base + 12;
  xa1[k] += 1.0 + k;
  xa2[k] += 3.0 + k;
  return 0;
}
int main(void) {
  pthread_t t1, t2;
  base = malloc(sizeof(double) * 2026);
  for (int i = 0; i < 2026; i++)
    base[i] = 0.5 * i;
  pthread_create(&t1, 0, worker, (void *)12);
  pthread_create(&t2, 0, worker, (void *)0);
  pthread_join(t1, 0);
  pthread_join(t2, 0);
  free(base);
  return 0;
}
