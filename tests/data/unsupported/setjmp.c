#include <setjmp.h>
#include <pthread.h>
jmp_buf env; int x;
void *w(void *a) { x = 1; return 0; }
int main(void) {
  pthread_t t;
  pthread_create(&t, 0, w, 0);
  if (setjmp(env)) return 1;
  x = 2;
  longjmp(env, 1);
}
