/* Our stubs of what pclsync's ptimer.c needs from the rest of the library and its
 * platform (logging, threads, clock), so that ptimer.c links alone. */
#include <stdint.h>
#include <time.h>
#include "pclsync/pdbg.h"
#include "pclsync/prun.h"
#include "pclsync/psys.h"
#include "pclsync/pcache.h"

int psync_do_run = 1;
unsigned int pdbg_runtime_level = D_NONE; /* logging off: nothing is printed */

int pdbg_printf(const char *file, const char *function, unsigned line, unsigned level,
                const char *fmt, ...) {
  (void)file; (void)function; (void)line; (void)level; (void)fmt;
  return 1;
}

void pcache_clean() {}

/* The platform's thread start: remembered, so that the test starts it itself. */
thread0_run stub_started;
void prun_thread(const char *name, thread0_run run) {
  (void)name;
  stub_started = run;
}

void psys_sleep_milliseconds(uint64_t millisec) { (void)millisec; }

/* A clock that ticks one second per call; the second tick stops the library's loops. */
static time_t stub_now = 1000;
time_t psys_time_seconds() {
  if (stub_now > 1000)
    psync_do_run = 0;
  return stub_now++;
}
