/* realloc to a size that is not a constant (it depends on argc): ladr's model gives the
   new block 128 bytes with the old block's contents (a heap-size cut), instead of CBMC's
   model, whose block of symbolic size made CBMC 6.6 crash (word-count.c of
   sysprog21/concurrent-programs). */
#include <pthread.h>
#include <stdlib.h>

int *buf;

void *worker(void *arg)
{
  buf[1] = buf[0] + 1;
  return 0;
}

int main(int argc, char **argv)
{
  buf = malloc(sizeof(int));
  if (!buf)
    return 0;
  buf[0] = 1;
  int *grown = realloc(buf, (argc + 1) * sizeof(int));
  if (!grown)
    return 0;
  buf = grown;
  pthread_t t;
  pthread_create(&t, 0, worker, 0);
  pthread_join(t, 0);
  int v = buf[1];
  return v;
}
