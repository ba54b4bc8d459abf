/* libpool-alloc: two threads share one pool and each allocates a chunk with
 * pool_alloc() and gives it back with pool_free(). Before the fix (built with
 * LIBPOOL_THREAD_SAFE, which that version ignored) both threads popped and pushed
 * the free list head pool->free_chunk with no lock. */
#include <pthread.h>
#include <stdio.h>
#include "src/libpool.h"

static Pool *pool;

static void *worker(void *arg) {
  long *chunk = pool_alloc(pool);
  if (chunk != NULL) {
    *chunk = (long)arg;
    pool_free(pool, chunk);
  }
  return NULL;
}

int main(void) {
  pthread_t a, b;
  pool = pool_new(2, sizeof(long));
  if (pool == NULL)
    return 1;
  pthread_create(&a, NULL, worker, (void *)1);
  pthread_create(&b, NULL, worker, (void *)2);
  pthread_join(a, NULL);
  pthread_join(b, NULL);
  pool_destroy(pool);
  printf("done\n");
  return 0;
}
