#include <pthread.h>
int config;
int result;
pthread_mutex_t m;
void *worker(void *a) {
  int c = config;
  pthread_mutex_lock(&m);
  result = result + c;
  pthread_mutex_unlock(&m);
  return 0;
}
int main(void) {
  pthread_t t[2];
  int i;
  config = 3;
  for (i = 0; i < 2; i++) pthread_create(&t[i], 0, worker, 0);
  for (i = 0; i < 1; i++) pthread_join(t[i], 0);
  result = result * 2;
  config = 0;
  return 0;
}
