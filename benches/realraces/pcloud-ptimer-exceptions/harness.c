/* pcloud-ptimer-exceptions: one thread registers an exception handler with
 * ptimer_exception_handler() while another sends an exception with
 * ptimer_do_notify_exception(), as two parts of the sync library do.
 * Before the fix the list head `excepions` was read outside timer_ex_mutex. */
#include <pthread.h>
#include <stdio.h>
#include "pclsync/ptimer.h"

static int handled; /* written only by the notifying thread */

static void on_exception() { handled++; }

static void *registrar(void *arg) {
  (void)arg;
  ptimer_exception_handler(on_exception);
  return NULL;
}

static void *notifier(void *arg) {
  (void)arg;
  ptimer_do_notify_exception();
  return NULL;
}

int main(void) {
  pthread_t a, b;
  pthread_create(&a, NULL, registrar, NULL);
  pthread_create(&b, NULL, notifier, NULL);
  pthread_join(a, NULL);
  pthread_join(b, NULL);
  printf("handled %d\n", handled);
  return 0;
}
