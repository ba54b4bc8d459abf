#include <pthread.h>
#include <strings.h>
/* The slot is taken from the mask but the mask is not updated: both threads get slot 0. */
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
unsigned free_mask = 3;
int slots[2];
void *t(void *arg) {
  pthread_mutex_lock(&m);
  int i = ffs(free_mask) - 1;
  pthread_mutex_unlock(&m);
  slots[i] = 1;
  return 0;
}
int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, t, 0);
  pthread_create(&b, 0, t, 0);
  return 0;
}
