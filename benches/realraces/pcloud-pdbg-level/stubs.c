/* Our stubs of what pclsync's pdbg.c needs from the rest of the library: the home
 * directory (the log goes to a file under it), the time format and the thread name. */
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "pclsync/pcompiler.h"
#include "pclsync/ppath.h"
#include "pclsync/putil.h"

PSYNC_THREAD const char *psync_thread_name = "test";

char *ppath_home() { return strdup("/tmp"); }

void putil_time_format(time_t tm, unsigned long ns, char *result) {
  (void)tm; (void)ns;
  strcpy(result, "2026-03-03 00:00:00.000");
}
