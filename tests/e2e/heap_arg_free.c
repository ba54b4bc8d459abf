#include <pthread.h>
#include <stdlib.h>
struct s { int a; int b; };
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
void *t(void *p) { struct s *q = p; pthread_mutex_lock(&m); q->a = q->a + 1; pthread_mutex_unlock(&m); return 0; }
int main(void) {
  struct s *obj = malloc(sizeof(struct s));
  pthread_t x, y;
  pthread_create(&x, 0, t, obj);
  pthread_create(&y, 0, t, obj);
  return 0;
}
