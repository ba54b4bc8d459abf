#include <pthread.h>
struct entry { int refs; pthread_mutex_t m; } cache[4];
void addref(struct entry *e) {
  pthread_mutex_lock(&e->m);
  e->refs++;
  pthread_mutex_unlock(&e->m);
}
void *worker(void *arg) {
  for (int i = 0; i < 4; i++) addref(&cache[i]);
  return 0;
}
int main(void) {
  for (int i = 0; i < 4; i++) pthread_mutex_init(&cache[i].m, 0);
  pthread_t t;
  pthread_create(&t, 0, worker, 0);
  for (int i = 0; i < 4; i++) addref(&cache[i]);
  pthread_mutex_lock(&cache[2].m);
  cache[2].refs++;
  pthread_mutex_unlock(&cache[2].m);
  return 0;
}
