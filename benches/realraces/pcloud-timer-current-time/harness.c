/* pcloud-timer-current-time: the timer thread that ptimer_init() starts updates the
 * cached clock psync_current_time while another thread asks ptimer_time() for it,
 * as every part of the sync library does. Before the fix both accesses were plain. */
#include <pthread.h>
#include <stdio.h>
#include "pclsync/prun.h"
#include "pclsync/ptimer.h"

extern thread0_run stub_started; /* stubs.c: the thread ptimer_init() asked for */

static time_t seen;

static void *timer(void *arg) {
  (void)arg;
  stub_started(); /* the library's timer thread: one tick of the stub clock */
  return NULL;
}

static void *client(void *arg) {
  (void)arg;
  seen = ptimer_time();
  return NULL;
}

int main(void) {
  pthread_t a, b;
  ptimer_init();
  pthread_create(&a, NULL, timer, NULL);
  pthread_create(&b, NULL, client, NULL);
  pthread_join(a, NULL);
  pthread_join(b, NULL);
  printf("time %ld\n", (long)seen);
  return 0;
}
