// Both threads write a device register through a pointer made from an integer. CBMC's
// shadow memory cannot name the object at that address, so the race is not found: the
// "no race" states that accesses through such a pointer may not have been checked.
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
