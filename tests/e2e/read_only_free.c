#include <pthread.h>
int limit = 10;
int table[3] = {1, 2, 3};
void *reader(void *a) {
  int v = limit + table[1];
  return (void *)(long)v;
}
int main(void) {
  pthread_t t1, t2;
  int v;
  pthread_create(&t1, 0, reader, 0);
  pthread_create(&t2, 0, reader, 0);
  v = limit;
  pthread_join(t1, 0);
  pthread_join(t2, 0);
  return v;
}
