// Both threads write a member through a null pointer: undefined behaviour, no race (an
// address made from an integer below the null page is no device register).
#include <pthread.h>
struct s { int a; int b; };
struct s *p;
void *t(void *x) {
  if (!p)
    p->b = 1;
  return 0;
}
int main(void) {
  pthread_t h;
  pthread_create(&h, 0, t, 0);
  if (!p)
    p->b = 2;
  pthread_join(h, 0);
  return 0;
}
