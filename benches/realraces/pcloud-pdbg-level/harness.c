/* pcloud-pdbg-level: the first message logged reads PCLOUD_LOG_LEVEL and stores the
 * runtime level pdbg_runtime_level, while another thread's pdbg_logf() compares its
 * message's level with it. Before the fix both accesses were plain.
 * The second thread logs at a level finer than any the library prints, so it only
 * reads the level: two threads that both print race on pdbg_level_initialized, which
 * the project has not fixed. */
#include <pthread.h>
#include <stdio.h>
#include "pclsync/pdbg.h"

#define TRACE (D_BUG + 10) /* finer than every level PCLOUD_LOG_LEVEL can name */

static void *logger(void *arg) {
  (void)arg;
  pdbg_logf(D_CRITICAL, "starting %d", 1);
  return NULL;
}

static void *tracer(void *arg) {
  (void)arg;
  pdbg_logf(TRACE, "tick %d", 2);
  return NULL;
}

int main(void) {
  pthread_t a, b;
  pthread_create(&a, NULL, logger, NULL);
  pthread_create(&b, NULL, tracer, NULL);
  pthread_join(a, NULL);
  pthread_join(b, NULL);
  printf("level %u\n", pdbg_runtime_level);
  return 0;
}
