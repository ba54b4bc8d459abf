#include <pthread.h>
#include <stdlib.h>
struct s { int a; int b; };
struct s *obj;
void *reader(void *p) { int v = obj->b; return 0; }
int main(void) {
  pthread_t t;
  obj = malloc(sizeof(struct s));
  obj->b = 1;
  pthread_create(&t, 0, reader, 0);
  free(obj);
  return 0;
}
