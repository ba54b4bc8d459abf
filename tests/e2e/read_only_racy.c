#include <pthread.h>
int limit = 10;
int table[3] = {1, 2, 3};
int *p = &limit;
void *reader(void *a) {
  int v = limit + table[1];
  return (void *)(long)v;
}
void *writer(void *a) {
  *p = 5;
  return 0;
}
int main(void) {
  pthread_t t1, t2;
  pthread_create(&t1, 0, reader, 0);
  pthread_create(&t2, 0, writer, 0);
  pthread_join(t1, 0);
  pthread_join(t2, 0);
  return 0;
}
