#include <pthread.h>
struct s { int a : 3; int : 0; int b : 4; } g;
void *worker(void *arg) { g.a = 2; return arg; }
int main(void) {
  pthread_t t;
  pthread_create(&t, 0, worker, 0);
  g.a = 1;
  pthread_join(t, 0);
  return 0;
}
