#include <threads.h>
int x;
int work(void *arg) {
  x++;
  return 0;
}
int main(void) {
  thrd_t a, b;
  thrd_create(&a, work, 0);
  thrd_create(&b, work, 0);
  thrd_join(a, 0);
  thrd_join(b, 0);
  return 0;
}
