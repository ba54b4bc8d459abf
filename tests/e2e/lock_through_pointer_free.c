#include <pthread.h>
struct s { int datum; pthread_mutex_t m; } a[2];
pthread_mutex_t g;
void *worker(void *arg) {
  int i = (int)(long)arg;
  if (i < 0 || i > 1)
    return 0;
  struct s *p = &a[i];
  pthread_mutex_lock(&g);
  pthread_mutex_lock(&p->m);
  pthread_mutex_unlock(&p->m);
  a[i].datum++;
  pthread_mutex_unlock(&g);
  return 0;
}
int main(void) {
  pthread_t t;
  pthread_mutex_init(&a[0].m, 0);
  pthread_mutex_init(&a[1].m, 0);
  pthread_create(&t, 0, worker, (void *)1);
  pthread_mutex_lock(&g); a[1].datum = 5; pthread_mutex_unlock(&g);
  pthread_join(t, 0);
  return 0;
}
