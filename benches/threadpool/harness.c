/* Harness of the thread-pool benchmark: checksums three blocks of a buffer on a pool of two
   workers, waiting for the first block before submitting the other two, and reports
   progress as it goes.

   The race (built with the default options): `progress.last_block` is published by the
   job without the pool's lock, and `main` reads it right after submitting the last block,
   while the jobs of blocks 1 and 2 may still be running (and those two jobs, on two
   workers, write it at the same time). The first block's publication is
   ordered before the read by pool_wait (the pool's mutex and condition variable). In
   ladr's model the racing interleaving takes 3 rounds: main submits and waits, a worker
   runs block 0 and signals, main wakes up, submits and reads, and a worker writes after
   that (the same handshake done twice needs 4). With -DPOOL_FIXED main waits for every
   block before the next one and before the read, and the program has no race. */
#include "pool.h"

#include <stdio.h>
#include <stdlib.h>

#define BLOCKS 3
#define BLOCK_LEN 4

static unsigned char data[BLOCKS * BLOCK_LEN];

struct block {
  int index;
  unsigned sum;
};

struct progress {
  int last_block;
  unsigned total;
  pthread_mutex_t lock;
};

static struct progress progress = { -1, 0, PTHREAD_MUTEX_INITIALIZER };

static void checksum_job(void *arg)
{
  struct block *b = arg;
  unsigned sum = 0;
  int i;
  for (i = 0; i < BLOCK_LEN; i++)
    sum = sum * 31u + data[b->index * BLOCK_LEN + i];
  b->sum = sum;
  pthread_mutex_lock(&progress.lock);
  progress.total += sum;
  pthread_mutex_unlock(&progress.lock);
  progress.last_block = b->index;
}

static void fill(unsigned seed)
{
  int i;
  for (i = 0; i < BLOCKS * BLOCK_LEN; i++) {
    seed = seed * 1103515245u + 12345u;
    data[i] = (unsigned char)(seed >> 16);
  }
}

int main(int argc, char **argv)
{
  struct pool pool;
  struct block blocks[BLOCKS];
  struct pool_stats stats;
  int i;

  fill((unsigned)argc);
  if (pool_init(&pool, 2, 8, "sum") != 0) {
    fprintf(stderr, "%s: cannot start the pool\n", argv[0]);
    return 1;
  }
  for (i = 0; i < BLOCKS; i++) {
    blocks[i].index = i;
    blocks[i].sum = 0;
    if (pool_submit(&pool, checksum_job, &blocks[i]) != 0) {
      fprintf(stderr, "block %d rejected\n", i);
      break;
    }
#ifdef POOL_FIXED
    pool_wait(&pool);
#else
    if (i == 0)
      pool_wait(&pool);
#endif
  }
  printf("last block done: %d\n", progress.last_block);
  pool_wait(&pool);
  pool_snapshot(&pool, &stats);
  printf("%lu jobs, total %u\n", stats.completed, progress.total);
  pool_destroy(&pool);
  return 0;
}
