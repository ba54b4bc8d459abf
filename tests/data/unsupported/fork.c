#include <pthread.h>
#include <unistd.h>
int x;
void *work(void *arg) {
  x = 1;
  return 0;
}
int main(void) {
  pthread_t t;
  pthread_create(&t, 0, work, 0);
  if (fork() == 0) {
    x = 2;
    _exit(0);
  }
  pthread_join(t, 0);
  return 0;
}
