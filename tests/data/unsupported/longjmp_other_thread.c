#include <setjmp.h>
#include <pthread.h>
jmp_buf env; int x;
void *w(void *a) { x = 1; longjmp(env, 1); return 0; }
int main(void) {
  pthread_t t;
  if (setjmp(env)) return 1;
  pthread_create(&t, 0, w, 0);
  pthread_join(t, 0);
  return x;
}
