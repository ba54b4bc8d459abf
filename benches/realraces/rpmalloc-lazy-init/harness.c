/* Two threads make the process's first allocations at once, without calling
   rpmalloc_initialize first: each allocation initialises the allocator lazily. */
#include <pthread.h>
#include <stddef.h>
#include <string.h>

#include "rpmalloc.h"

static int filled[2];

static void *alloc_worker(void *arg) {
  int id = *(int *)arg;
  char *block = rpmalloc(32);
  if (block == NULL)
    return NULL;
  memset(block, 'a' + id, 32);
  filled[id] = block[31] == 'a' + id;
  rpfree(block);
  return NULL;
}

int main(void) {
  pthread_t t[2];
  int ids[2] = {0, 1};
  for (int i = 0; i < 2; i++)
    pthread_create(&t[i], NULL, alloc_worker, &ids[i]);
  for (int i = 0; i < 2; i++)
    pthread_join(t[i], NULL);
  /* Both threads got a usable block. */
  return !(filled[0] && filled[1]);
}
