#include <pthread.h>
#include <stdlib.h>
#include <strings.h>
/* Each thread takes a free slot from the mask under the mutex: ffs is exact. */
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
unsigned free_mask = 3;
int slots[2];
int measure(void);
void *t(void *arg) {
  pthread_mutex_lock(&m);
  int i = ffs(free_mask) - 1;
  free_mask &= ~(1u << i);
  pthread_mutex_unlock(&m);
  slots[abs(i)] = measure();
  return 0;
}
int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, t, 0);
  pthread_create(&b, 0, t, 0);
  return 0;
}
