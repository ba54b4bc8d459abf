#include <pthread.h>
#include <string.h>

struct key { unsigned long len; char text[8]; };
static struct key first = {2, "r"}, second = {2, "u"};
static char wanted[8] = "r";
static int found;

static void *writer(void *arg)
{
  (void) arg;
  wanted[0] = 'u';
  return NULL;
}

static void *reader(void *arg)
{
  struct key *k = arg;
  if (memcmp(k->text, wanted, k->len) == 0)
    found = 1;
  return NULL;
}

int main(int argc, char **argv)
{
  pthread_t a, b;
  (void) argv;
  pthread_create(&a, NULL, writer, NULL);
  pthread_create(&b, NULL, reader, argc > 1 ? &first : &second);
  pthread_join(a, NULL);
  pthread_join(b, NULL);
  return found;
}
