#include <pthread.h>
#include <stdlib.h>
struct s { int a; int b; };
void *t(void *p) { struct s *q = p; q->a = q->a + 1; return 0; }
int main(void) {
  struct s *obj = malloc(sizeof(struct s));
  pthread_t x, y;
  pthread_create(&x, 0, t, obj);
  pthread_create(&y, 0, t, obj);
  return 0;
}
