#include <pthread.h>
#include <unistd.h>
int fds[2];
int result;
void *worker(void *p) {
  char c;
  read(fds[0], &c, 1);
  int v = result;
  return 0;
}
int main(void) {
  pthread_t t;
  pipe(fds);
  pthread_create(&t, 0, worker, 0);
  result = 42;
  write(fds[1], "x", 1);
  pthread_join(t, 0);
  return 0;
}
