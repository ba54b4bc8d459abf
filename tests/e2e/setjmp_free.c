#include <pthread.h>
#include <setjmp.h>
int failures;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static void fail(jmp_buf env, int code) {
  longjmp(env, code);
}
void *worker(void *a) {
  jmp_buf env;
  int code = setjmp(env);
  if (code != 0) {
    pthread_mutex_lock(&m); failures += code; pthread_mutex_unlock(&m);
    return 0;
  }
  fail(env, 2);
  return a;
}
int main(void) {
  pthread_t t1, t2;
  pthread_create(&t1, 0, worker, 0);
  pthread_create(&t2, 0, worker, 0);
  pthread_join(t1, 0);
  pthread_join(t2, 0);
  return failures;
}
