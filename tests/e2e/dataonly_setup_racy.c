#include <pthread.h>
int a[1000];
void *worker(void *arg) {
  long k = (long)arg;
  a[k] = a[k + 1] + 1;
  return 0;
}
int main(void) {
  pthread_t t1, t2;
  for (int i = 0; i < 1000; i++)
    a[i] = i;
  pthread_create(&t1, 0, worker, (void *)1);
  pthread_create(&t2, 0, worker, (void *)0);
  pthread_join(t1, 0);
  pthread_join(t2, 0);
  return a[0];
}
