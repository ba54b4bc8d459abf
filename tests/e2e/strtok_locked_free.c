#include <pthread.h>
#include <string.h>
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
void *split(void *arg) {
  char line[8] = "a b";
  pthread_mutex_lock(&m);
  char *word = strtok(line, " ");
  pthread_mutex_unlock(&m);
  return word;
}
int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, split, 0);
  pthread_create(&b, 0, split, 0);
  pthread_join(a, 0);
  pthread_join(b, 0);
  return 0;
}
