#include <pthread.h>
#include <stdlib.h>
int *buf;
void *writer(void *p) { buf[0] = 7; return 0; }
int main(void) {
  pthread_t t;
  buf = malloc(2 * sizeof(int));
  pthread_create(&t, 0, writer, 0);
  int *bigger = realloc(buf, 8 * sizeof(int));
  pthread_join(t, 0);
  free(bigger);
  return 0;
}
