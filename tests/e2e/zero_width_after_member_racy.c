#include <pthread.h>
struct S { char tag; long *next; int a : 3; int : 0; int b : 5; } s;
void *worker(void *arg) { s.b = 1; return arg; }
int main(void) {
  pthread_t t;
  pthread_create(&t, 0, worker, 0);
  s.b = 2;
  pthread_join(t, 0);
  return 0;
}
