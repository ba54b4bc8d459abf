// Both threads write a device register through a pointer made from an integer: a race
// (with CBMC's shadow memory it went unseen; the one monitored address finds it, since
// every pointer made from an integer points into CBMC's one integer-address object).
#include <pthread.h>
#define REG (*(volatile int *)0x40001000)
void *t(void *a) {
  REG = 1;
  return 0;
}
int main(void) {
  pthread_t h;
  pthread_create(&h, 0, t, 0);
  REG = 2;
  pthread_join(h, 0);
  return 0;
}
