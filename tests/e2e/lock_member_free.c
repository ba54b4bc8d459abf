#include <pthread.h>
struct entry { int refs; pthread_mutex_t m; } cache[2];
pthread_mutex_t g;
void addref(struct entry *e) {
  pthread_mutex_lock(&e->m);
  pthread_mutex_lock(&g);
  e->refs++;
  pthread_mutex_unlock(&g);
  pthread_mutex_unlock(&e->m);
}
void *worker(void *a) {
  for (int i = 0; i < 2; i++)
    addref(&cache[i]);
  return 0;
}
int main(void) {
  pthread_t t;
  for (int i = 0; i < 2; i++)
    pthread_mutex_init(&cache[i].m, 0);
  pthread_create(&t, 0, worker, 0);
  for (int i = 0; i < 2; i++)
    addref(&cache[i]);
  pthread_mutex_lock(&g); cache[1].refs = 0; pthread_mutex_unlock(&g);
  pthread_join(t, 0);
  return 0;
}
