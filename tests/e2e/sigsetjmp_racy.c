#include <pthread.h>
#include <setjmp.h>
int attempts, done;
void *worker(void *a) {
  sigjmp_buf env;
  int round = 0;
  if (sigsetjmp(env, 1) == 0)
    round = 0;
  attempts++;
  round++;
  if (round < 2)
    siglongjmp(env, 1);
  return 0;
}
int main(void) {
  pthread_t t1, t2;
  pthread_create(&t1, 0, worker, 0);
  pthread_create(&t2, 0, worker, 0);
  return 0;
}
