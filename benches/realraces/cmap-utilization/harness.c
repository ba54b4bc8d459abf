/* cmap-utilization: the map's single writer inserts nodes with cmap_insert() while
 * a monitor thread keeps asking cmap_utilization() how full the map is, as the project's
 * test-cmap.c does. Before the fix the counter impl->utilization was a plain size_t
 * incremented by the writer and read by the monitor. */
#include <pthread.h>
#include <stdio.h>
#include "cmap/cmap.h"

#define N 1000 /* inserts; fewer than the 1024 that make the map grow */

static struct cmap map;
static struct cmap_node nodes[N];
static double used;
static pthread_barrier_t start; /* both threads begin together */

static void *writer(void *arg) {
  (void)arg;
  pthread_barrier_wait(&start);
  for (int i = 0; i < N; i++)
    cmap_insert(&map, &nodes[i], i);
  return NULL;
}

static void *monitor(void *arg) {
  (void)arg;
  pthread_barrier_wait(&start);
  for (int i = 0; i < 100 * N; i++)
    used = cmap_utilization(&map);
  return NULL;
}

int main(void) {
  pthread_t a, b;
  cmap_init(&map);
  pthread_barrier_init(&start, NULL, 2);
  pthread_create(&a, NULL, writer, NULL);
  pthread_create(&b, NULL, monitor, NULL);
  pthread_join(a, NULL);
  pthread_join(b, NULL);
  printf("utilization %f\n", used);
  return 0;
}
