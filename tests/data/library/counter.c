/* A small library for library mode's tests: no main. `counter_add` and `counter_reset`
   write `hits` without a lock (a race between them, and of `counter_add` with itself);
   `total_add` takes `total_lock` around `total` (no race with itself). */
#include <pthread.h>

static int hits;
static long total;
static pthread_mutex_t total_lock = PTHREAD_MUTEX_INITIALIZER;

void counter_add(int n)
{
    hits = hits + n;
}

void counter_reset(void)
{
    hits = 0;
}

void total_add(long *amount)
{
    pthread_mutex_lock(&total_lock);
    total += *amount;
    pthread_mutex_unlock(&total_lock);
}
