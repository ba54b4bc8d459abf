#include <pthread.h>
#include <sys/mman.h>

static unsigned long span_size;
static long mapped;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

static void *first_use(void *arg)
{
  char *span = mmap(NULL, span_size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  (void) arg;
  if (span == MAP_FAILED)
    return NULL;
  span[0] = 1;
  pthread_mutex_lock(&lock);
  mapped += span[0];
  pthread_mutex_unlock(&lock);
  munmap(span, span_size);
  return NULL;
}

int main(int argc, char **argv)
{
  pthread_t t[2];
  (void) argv;
  span_size = (unsigned long) argc * 4096;
  for (int i = 0; i < 2; i++)
    pthread_create(&t[i], NULL, first_use, NULL);
  for (int i = 0; i < 2; i++)
    pthread_join(t[i], NULL);
  return (int) mapped;
}
