#include <threads.h>
int x, y;
mtx_t plain, rec;
int worker(void *p) {
  if (mtx_trylock(&plain) == thrd_success) {
    x++;
    mtx_unlock(&plain);
  } else {
    x--;
  }
  mtx_lock(&rec);
  mtx_lock(&rec);
  y++;
  mtx_unlock(&rec);
  mtx_unlock(&rec);
  return 0;
}
int main(void) {
  thrd_t a, b;
  mtx_init(&plain, mtx_plain);
  mtx_init(&rec, mtx_plain | mtx_recursive);
  thrd_create(&a, worker, 0);
  thrd_create(&b, worker, 0);
  thrd_join(a, 0);
  thrd_join(b, 0);
  return x + y;
}
