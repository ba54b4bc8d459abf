#include <pthread.h>
#include <stdlib.h>
#include <string.h>

struct event { int id; const char *name; };
typedef void (*handler)(int, char *);
static handler callback;
static int seen;

static void on_event(int id, char *name) { (void) id; (void) name; seen++; }

static void *app(void *arg)
{
  (void) arg;
  callback = on_event;
  return NULL;
}

static void deliver(struct event *e)
{
  char *copy = strdup(e->name);
  if (callback)
    callback(e->id, copy);
  free(copy);
}

static void *engine(void *arg)
{
  struct event e = {7, "file.txt"};
  (void) arg;
  deliver(&e);
  return NULL;
}

int main(void)
{
  pthread_t a, b;
  pthread_create(&a, NULL, app, NULL);
  pthread_create(&b, NULL, engine, NULL);
  pthread_join(a, NULL);
  pthread_join(b, NULL);
  return seen;
}
