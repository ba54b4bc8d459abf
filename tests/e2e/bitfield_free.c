// A bit-field and the members around it are separate memory locations: no race (the
// flags of the bit-field were kept on the whole struct, a false race with `s.d`, `s.c`).
#include <pthread.h>
struct S { int c; unsigned a : 3, b : 4; int d; } s;
struct T { unsigned f : 1; int n; } u;
void *t(void *p) {
  s.a = 1;
  u.f = 1;
  return 0;
}
int main(void) {
  pthread_t h;
  pthread_create(&h, 0, t, 0);
  s.d = 2;
  s.c = 3;
  u.n = 4;
  pthread_join(h, 0);
  return s.c + s.d;
}
