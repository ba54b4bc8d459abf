#include <pthread.h>
#include <sys/socket.h>
#include <unistd.h>
int sv[2];
int result;
void *worker(void *p) {
  char c;
  recv(sv[1], &c, 1, 0);
  result = result + c;
  close(sv[1]);
  return 0;
}
int main(void) {
  pthread_t t;
  socketpair(AF_UNIX, SOCK_STREAM, 0, sv);
  pthread_create(&t, 0, worker, 0);
  result = 1;
  send(sv[0], "x", 1, 0);
  char end;
  while (read(sv[0], &end, 1) > 0) {}
  int v = result;
  return 0;
}
