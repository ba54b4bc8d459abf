#include <pthread.h>
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
int total;
void *t(void *p) {
  pthread_mutex_lock(&m);
  total++;
  pthread_mutex_unlock(&m);
  return 0;
}
int main(void) {
  pthread_t th[3];
  for (int i = 0; i < 3; i++)
    pthread_create(&th[i], 0, t, 0);
  for (int i = 0; i < 2; i++)
    pthread_join(th[i], 0);
  total = 0;
  return 0;
}
