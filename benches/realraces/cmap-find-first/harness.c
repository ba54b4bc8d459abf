/* cmap-find-first: the map's single writer inserts elements whose keys share one hash
 * while a reader looks the hash up with MAP_FOREACH_WITH_HASH, the lock-free read
 * that test-cmap.c's readers do. Before the fix cmap_insert() published the new head
 * of the bucket, impl->arr[i].first, with a plain store and cmap_find__() read it
 * with a plain load. */
#include <pthread.h>
#include <stdio.h>
#include "cmap/cmap.h"

#define N 1000 /* inserts; fewer than the 1024 that make the map grow */
#define HASH 7

struct elem {
  struct cmap_node node;
  int value;
};

static struct cmap map;
static struct elem elems[N];
static long found;
static pthread_barrier_t start; /* both threads begin together */

static void *writer(void *arg) {
  (void)arg;
  pthread_barrier_wait(&start);
  for (int i = 0; i < N; i++) {
    elems[i].value = i;
    cmap_insert(&map, &elems[i].node, HASH);
  }
  return NULL;
}

static void *reader(void *arg) {
  (void)arg;
  pthread_barrier_wait(&start);
  for (int i = 0; i < 100 * N; i++) {
    struct cmap_state state = cmap_state_acquire(&map);
    struct elem *e;
    MAP_FOREACH_WITH_HASH (e, node, HASH, state) {
      found += e->value; /* the newest element with this hash */
      break;
    }
    cmap_state_release(state);
  }
  return NULL;
}

int main(void) {
  pthread_t a, b;
  cmap_init(&map);
  pthread_barrier_init(&start, NULL, 2);
  pthread_create(&a, NULL, writer, NULL);
  pthread_create(&b, NULL, reader, NULL);
  pthread_join(a, NULL);
  pthread_join(b, NULL);
  printf("found %ld\n", found);
  return 0;
}
