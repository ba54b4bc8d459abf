#include <pthread.h>
int shared;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
void *reader(void *p) {
  int v;
  pthread_mutex_lock(&m);
  __asm__ volatile("movl %1, %0" : "=r"(v) : "m"(shared));
  pthread_mutex_unlock(&m);
  return 0;
}
void *writer(void *p) {
  int one = 1;
  pthread_mutex_lock(&m);
  __asm__ volatile("movl %1, %0" : "=m"(shared) : "r"(one));
  pthread_mutex_unlock(&m);
  return 0;
}
int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, reader, 0);
  pthread_create(&b, 0, writer, 0);
  return 0;
}
