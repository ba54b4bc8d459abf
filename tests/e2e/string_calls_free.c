#include <pthread.h>
#include <stdio.h>
#include <string.h>
int hits;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
void *worker(void *arg) {
  char name[16];
  snprintf(name, sizeof name, "thpool-%d", (int)strlen((const char *)arg));
  if (strcmp(name, "thpool-99") == 0) {
    fprintf(stderr, "worker %s: error\n", name);
    return 0;
  }
  pthread_mutex_lock(&m);
  hits++;
  pthread_mutex_unlock(&m);
  return 0;
}
int main(void) {
  pthread_t t1, t2;
  pthread_create(&t1, 0, worker, "hello");
  pthread_create(&t2, 0, worker, "world!");
  pthread_join(t1, 0);
  pthread_join(t2, 0);
  return 0;
}
