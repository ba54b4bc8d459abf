// A node's `datum` is guarded by `data_lock`, its `next` by `list_lock`; the threads
// reach the heap node through pointers declared `struct node *`, so the proof tells the
// two members apart (and `datum++` moves no pointer: an `int` member of a node).
#include <pthread.h>
#include <stdlib.h>
struct node {
  int datum;
  struct node *next;
};
pthread_mutex_t data_lock = PTHREAD_MUTEX_INITIALIZER;
pthread_mutex_t list_lock = PTHREAD_MUTEX_INITIALIZER;
struct node *head;
void *adder(void *arg) {
  struct node *p = head;
  pthread_mutex_lock(&data_lock);
  p->datum++;
  pthread_mutex_unlock(&data_lock);
  return 0;
}
void *linker(void *arg) {
  struct node *p = head;
  pthread_mutex_lock(&list_lock);
  p->next = p;
  pthread_mutex_unlock(&list_lock);
  return 0;
}
int main(void) {
  head = malloc(sizeof(struct node));
  head->datum = 0;
  head->next = 0;
  pthread_t a, b, c;
  pthread_create(&a, 0, adder, 0);
  pthread_create(&b, 0, adder, 0);
  pthread_create(&c, 0, linker, 0);
  pthread_join(a, 0);
  pthread_join(b, 0);
  pthread_join(c, 0);
  return head->datum;
}
