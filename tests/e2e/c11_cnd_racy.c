#include <threads.h>
int data, ready;
mtx_t m;
cnd_t c;
int producer(void *p) {
  data = 42;
  mtx_lock(&m);
  ready = 1;
  cnd_signal(&c);
  mtx_unlock(&m);
  data = 43;
  return 0;
}
int consumer(void *p) {
  mtx_lock(&m);
  while (!ready)
    cnd_wait(&c, &m);
  mtx_unlock(&m);
  int v = data;
  return v;
}
int main(void) {
  thrd_t a, b;
  mtx_init(&m, mtx_plain);
  cnd_init(&c);
  thrd_create(&a, producer, 0);
  thrd_create(&b, consumer, 0);
  thrd_join(a, 0);
  thrd_join(b, 0);
  cnd_destroy(&c);
  return 0;
}
