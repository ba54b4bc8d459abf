/* Our stubs of what pclsync's ptevent.c needs from the rest of the library and its
 * platform: logging (off) and the thread start, which runs the new thread's work at
 * once in the calling thread. */
#include "pclsync/pdbg.h"
#include "pclsync/prun.h"

unsigned int pdbg_runtime_level = D_NONE; /* logging off: nothing is printed */

int pdbg_printf(const char *file, const char *function, unsigned line, unsigned level,
                const char *fmt, ...) {
  (void)file; (void)function; (void)line; (void)level; (void)fmt;
  return 1;
}

void prun_thread1(const char *name, thread1_run run, void *ptr) {
  (void)name;
  run(ptr);
}
