#include <pthread.h>
int shared;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
void *t(void *p) { pthread_mutex_lock(&m); shared++; pthread_mutex_unlock(&m); return 0; }
int main(void) {
  pthread_t ids[3];
  for (int i = 0; i < 3; i++)
    pthread_create(&ids[i], 0, t, 0);
  for (int i = 0; i < 3; i++)
    pthread_join(ids[i], 0);
  return 0;
}
