/* pcloud-tevent-callback: the client installs its data-event callback with
 * ptevent_init() while the sync engine already reports an event with
 * ptevent_process(), as at start-up. Before the fix the callback pointer
 * data_event_fptr was written and read with no lock. */
#include <pthread.h>
#include <stdio.h>
#include "pclsync/ptevent.h"

static int events; /* written only by the thread that delivers events */

static void on_event(int id, char *s1, char *s2, uint64_t u1, uint64_t u2) {
  (void)id; (void)s1; (void)s2; (void)u1; (void)u2;
  events++;
}

static void *client(void *arg) {
  (void)arg;
  ptevent_init((void *)on_event);
  return NULL;
}

static void *engine(void *arg) {
  event_data_struct ev = {PEVENT_SYNC_RENAME_F, "/old", "/new", 1, 2};
  (void)arg;
  ptevent_process(&ev);
  return NULL;
}

int main(void) {
  pthread_t a, b;
  pthread_create(&a, NULL, client, NULL);
  pthread_create(&b, NULL, engine, NULL);
  pthread_join(a, NULL);
  pthread_join(b, NULL);
  printf("events %d\n", events);
  return 0;
}
