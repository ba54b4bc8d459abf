#include <threads.h>
int counter;
mtx_t m;
int worker(void *arg) {
  counter++;
  return 7;
}
int main(void) {
  thrd_t a, b;
  int ra, rb;
  int *pb = &rb;
  mtx_init(&m, mtx_plain);
  if (thrd_create(&a, worker, NULL) != thrd_success)
    return 1;
  if (thrd_create(&b, worker, NULL) != thrd_success)
    return 1;
  thrd_join(a, &ra);
  thrd_join(b, pb);
  mtx_destroy(&m);
  return ra + rb;
}
