#include <pthread.h>
#include <stdlib.h>
struct s { int a; int b; };
void *ta(void *p) { struct s *q = p; q->a = 1; return 0; }
void *tb(void *p) { struct s *q = p; q->a = 2; return 0; }
int main(void) {
  struct s *obj = malloc(sizeof(struct s));
  pthread_t x, y;
  pthread_create(&x, 0, ta, obj);
  pthread_create(&y, 0, tb, obj);
  return 0;
}
