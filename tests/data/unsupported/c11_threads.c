#include <threads.h>
int x;
int work(void *arg) {
  x++;
  return 0;
}
int main(void) {
  thrd_t a, b;
  int (*create)(thrd_t *, thrd_start_t, void *) = thrd_create;
  create(&a, work, 0);
  create(&b, work, 0);
  thrd_join(a, 0);
  thrd_join(b, 0);
  return 0;
}
