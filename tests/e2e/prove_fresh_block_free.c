// A block initialised before it is published: each worker fills a new node through a
// helper while no other thread can reach it, then links it into the list under the
// lock; `main` reads the list under the lock.
#include <pthread.h>
#include <stdlib.h>
struct node {
  int datum;
  struct node *next;
};
struct node *list;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
void init(struct node *n, int v) {
  n->datum = v;
  n->next = 0;
}
void *worker(void *arg) {
  struct node *n = malloc(sizeof(struct node));
  init(n, 7);
  pthread_mutex_lock(&m);
  n->next = list;
  list = n;
  pthread_mutex_unlock(&m);
  return 0;
}
int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, worker, 0);
  pthread_create(&b, 0, worker, 0);
  int sum = 0;
  pthread_mutex_lock(&m);
  if (list)
    sum = list->datum;
  pthread_mutex_unlock(&m);
  pthread_join(a, 0);
  pthread_join(b, 0);
  return sum;
}
