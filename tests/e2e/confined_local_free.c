#include <pthread.h>
#include <string.h>
int *shared;
int total;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static void fill(int *b) { for (int i = 0; i < 2; i++) b[i] = i; }
void *t(void *arg) {
  int buf[4];
  int *p = buf;
  memset(p, 0, sizeof buf);
  fill(p);
  buf[1] = 7;
  pthread_mutex_lock(&m);
  total += p[1];
  pthread_mutex_unlock(&m);
  return 0;
}
int main(void) {
  pthread_t x, y;
  pthread_create(&x, 0, t, 0);
  pthread_create(&y, 0, t, 0);
  pthread_join(x, 0);
  pthread_join(y, 0);
  return total;
}
