#include <pthread.h>
int x;
void *writer(void *arg) {
  int n = 0;
  {
  again:
    n++;
    if (n == 3)
      x = 1;
  }
  if (n < 2)
    goto again;
  return 0;
}
void *reader(void *arg) {
  int v = x;
  return 0;
}
int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, writer, 0);
  pthread_create(&b, 0, reader, 0);
  pthread_join(a, 0);
  pthread_join(b, 0);
  return 0;
}
