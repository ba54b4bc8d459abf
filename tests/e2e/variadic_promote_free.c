#include <pthread.h>
#include <stdarg.h>
int x;
void set(int n, ...) {
  va_list ap;
  va_start(ap, n);
  double d = va_arg(ap, double);
  int c = va_arg(ap, int);
  if (d != 1.5 || c != 'a')
    x = 1; /* never: the arguments are a float 1.5 and the char 'a' */
  va_end(ap);
}
void *worker(void *p) {
  float f = 1.5f;
  char ch = 'a';
  set(2, f, ch);
  return 0;
}
int main(void) {
  pthread_t t;
  pthread_create(&t, 0, worker, 0);
  x = 2;
  pthread_join(t, 0);
  return 0;
}
