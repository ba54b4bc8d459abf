#include <pthread.h>
int x;
void *spin(void *a) {
  pthread_setcancelstate(PTHREAD_CANCEL_ENABLE, 0);
  pthread_setcanceltype(PTHREAD_CANCEL_ASYNCHRONOUS, 0);
  for (;;)
    x++;
  return 0;
}
int main(void) {
  pthread_t t;
  pthread_create(&t, 0, spin, 0);
  pthread_cancel(t);
  pthread_join(t, 0);
  return x;
}
