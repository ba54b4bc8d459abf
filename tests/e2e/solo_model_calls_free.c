#include <pthread.h>
#include <stdlib.h>
struct cell { int v; };
struct cell *b[4];
pthread_mutex_t m[4];
void *worker(void *a) {
  pthread_mutex_lock(&m[(long)a]);
  b[1]->v++;
  pthread_mutex_unlock(&m[(long)a]);
  return 0;
}
int main(void) {
  pthread_t t1, t2;
  for (int i = 0; i < 4; i++) {
    pthread_mutex_init(&m[i], 0);
    b[i] = malloc(sizeof(struct cell));
    if (!b[i])
      abort();
    b[i]->v = 0;
  }
  pthread_create(&t1, 0, worker, (void *)1);
  pthread_create(&t2, 0, worker, (void *)1);
  pthread_join(t1, 0);
  pthread_join(t2, 0);
  return 0;
}
