#include <pthread.h>
struct pair { int left; int right; };
struct pair p;
int slots[2];
void *worker(void *a) {
  p.left = 1;
  slots[0] = 1;
  return 0;
}
int main(void) {
  pthread_t t;
  pthread_create(&t, 0, worker, 0);
  p.right = 2;
  slots[1] = 2;
  return 0;
}
