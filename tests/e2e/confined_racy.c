#include <pthread.h>
int counter;
int flag;
void *counting(void *a) {
  counter = counter + 1;
  counter = counter + 1;
  return 0;
}
void *other(void *a) {
  int f = flag;
  return (void *)(long)f;
}
int main(void) {
  pthread_t t1, t2;
  flag = 1;
  pthread_create(&t1, 0, counting, 0);
  pthread_create(&t2, 0, counting, 0);
  return 0;
}
