#include <pthread.h>
int counter;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
int main(void) {
  pthread_mutex_lock(&m);
  counter++;
  pthread_mutex_unlock(&m);
  return counter;
}
