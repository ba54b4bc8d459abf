#include <pthread.h>
typedef struct { int z; } Q;
struct S { Q x; int a : 3; int : 0; int b : 5; } s;
void *t(void *p) { s.a = 1; return 0; }
int main(void) {
  pthread_t h;
  pthread_create(&h, 0, t, 0);
  s.a = 2;
  pthread_join(h, 0);
  return 0;
}
