#include <pthread.h>
int x;
void *worker(void *arg) {
  int i = 0;
  if (arg) goto inside;
  while (i < 2) {
    i++;
  inside:
    x = i;
  }
  return 0;
}
int main(void) {
  pthread_t t;
  pthread_create(&t, 0, worker, 0);
  x = 5;
  pthread_join(t, 0);
  return 0;
}
