/* Harness of ours for a race that capstone-engine/capstone fixed in 131dd643ef (see ./source);
   it calls the library only through its own functions, as a unit test would. */
/* Two threads each open and close their own disassembler handle, the first handles in the
   process (capstone's handles are per-thread; opening one initialises the library). */
#include <pthread.h>
#include <stddef.h>

#include <capstone/capstone.h>

static cs_err opened[2];

static void *open_worker(void *arg) {
  int id = *(int *)arg;
  csh handle;
  opened[id] = cs_open(CS_ARCH_XCORE, CS_MODE_BIG_ENDIAN, &handle);
  if (opened[id] == CS_ERR_OK)
    cs_close(&handle);
  return NULL;
}

int main(void) {
  pthread_t t[2];
  int ids[2] = {0, 1};
  for (int i = 0; i < 2; i++)
    pthread_create(&t[i], NULL, open_worker, &ids[i]);
  for (int i = 0; i < 2; i++)
    pthread_join(t[i], NULL);
  /* XCore is compiled in: both threads got a handle. */
  return opened[0] != CS_ERR_OK || opened[1] != CS_ERR_OK;
}
