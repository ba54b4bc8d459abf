#include <pthread.h>
int shared;
void *reader(void *p) {
  int v;
  __asm__ volatile("movl %1, %0" : "=r"(v) : "m"(shared));
  return 0;
}
void *writer(void *p) {
  int one = 1;
  __asm__ volatile("movl %1, %0" : "=m"(shared) : "r"(one));
  return 0;
}
int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, reader, 0);
  pthread_create(&b, 0, writer, 0);
  return 0;
}
