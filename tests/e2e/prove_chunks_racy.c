#include <pthread.h>
#include <stdlib.h>
int *data;
int next;
int len = 20;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
void *worker(void *arg) {
  int c = 0, end = 0;
  pthread_mutex_lock(&m);
  if (next + 2 <= len) {
    c = next;
    end = next + 2; next = next + 1; /* windows overlap */
  }
  pthread_mutex_unlock(&m);
  while (c < end) {
    data[c] = c;
    c++;
  }
  return 0;
}
int main(void) {
  pthread_t t[2];
  data = malloc(sizeof(int) * len);
  for (int i = 0; i < 2; i++)
    pthread_create(&t[i], 0, worker, 0);
  for (int i = 0; i < 2; i++)
    pthread_join(t[i], 0);
  return data[0];
}
