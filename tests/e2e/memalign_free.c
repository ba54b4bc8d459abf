/* posix_memalign through an inlined helper: its size is a parameter that `inline` assigns
   once (a constant), and the thread allocates more than once (a loop). CBMC 6.6's own
   model allocated an object of the parameter's symbolic size, and CBMC crashed ("Type of
   renamed expr should be the same as operands for if_exprt"). */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

struct node { long id; struct node *next; };
struct node *head;

static void *align_alloc(size_t align, size_t size)
{
  void *ptr;
  if (posix_memalign(&ptr, align, size) != 0)
    abort();
  return ptr;
}

void *producer(void *arg)
{
  for (int i = 0; i < 2; i++) {
    struct node *n = align_alloc(64, sizeof(struct node));
    memset(n, 0, sizeof(struct node));
    n->id = i;
    n->next = head;
    head = n;
  }
  return 0;
}

int main(void)
{
  pthread_t t;
  pthread_create(&t, 0, producer, 0);
  pthread_join(t, 0);
  struct node *h = head;
  return h != 0;
}
