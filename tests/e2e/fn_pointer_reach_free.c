#include <pthread.h>
int shared;
static void on_event() { shared++; }
struct handler { void (*fn)(); struct handler *next; };
static struct handler *handlers;
static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static struct handler first;
static void heavy() { for (int i = 0; i < 40; i++) for (int j = 0; j < 40; j++) shared += i * j; }
static void never_called(struct handler *h) { h->fn = heavy; }
/* Reached only through `installer`, a file-scope pointer: its address-taking counts. */
static void install(void) { first.fn = on_event; first.next = 0; handlers = &first; }
static void (*installer)(void) = install;
void *notifier(void *arg) {
  struct handler *h;
  pthread_mutex_lock(&m);
  h = handlers;
  pthread_mutex_unlock(&m);
  while (h) { h->fn(); h = h->next; }
  return arg;
}
int main(void) {
  pthread_t t;
  pthread_mutex_lock(&m);
  installer();
  pthread_mutex_unlock(&m);
  pthread_create(&t, 0, notifier, 0);
  pthread_join(t, 0);
  shared = 5;
  return 0;
}
