#include <pthread.h>
struct d { char *format; unsigned flags : 8; } dd;
typedef struct w w_t;
struct w { unsigned int flags; void *p; };
w_t wq;
void *worker(void *arg) { wq.flags = 2; dd.flags = 1; return arg; }
int main(void) {
  pthread_t t;
  pthread_create(&t, 0, worker, 0);
  wq.flags = 1;
  pthread_join(t, 0);
  return 0;
}
