/* cmap-mutex-where: two threads take turns on one of cmap's debugging mutexes
 * (locks.h: struct mutex remembers where it was locked, for the fence that cmap's
 * readers and its expansion share). Before the fix mutex_unlock() cleared
 * mutex->where after releasing the lock, so it raced with the next owner's store. */
#include <pthread.h>
#include <stdio.h>
#include "cmap/locks.h"

static struct mutex lock;
static int counter; /* guarded by lock */

static void *worker(void *arg) {
  (void)arg;
  mutex_lock(&lock);
  counter++;
  mutex_unlock(&lock);
  return NULL;
}

int main(void) {
  pthread_t a, b;
  mutex_init(&lock);
  pthread_create(&a, NULL, worker, NULL);
  pthread_create(&b, NULL, worker, NULL);
  pthread_join(a, NULL);
  pthread_join(b, NULL);
  mutex_destroy(&lock);
  printf("counter %d\n", counter);
  return 0;
}
