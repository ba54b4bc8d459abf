#include <pthread.h>
#include <signal.h>
#include <unistd.h>
int ticks;
void on_alarm(int s) { ticks++; }
void *w(void *a) { ticks = 5; return 0; }
int main(void) {
  struct sigaction sa = { 0 };
  sa.sa_handler = on_alarm;
  sigaction(SIGALRM, &sa, 0);
  alarm(1);
  pthread_t t;
  pthread_create(&t, 0, w, 0);
  return 0;
}
