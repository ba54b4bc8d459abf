// Two bit-fields of one run are one memory location (C11 3.14): a race.
#include <pthread.h>
struct S { int c; unsigned a : 3, b : 4; int d; } s;
void *t(void *p) {
  s.a = 1;
  return 0;
}
int main(void) {
  pthread_t h;
  pthread_create(&h, 0, t, 0);
  s.b = 2;
  pthread_join(h, 0);
  return s.c + s.d;
}
