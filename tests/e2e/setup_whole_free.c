#include <pthread.h>
#include <stdlib.h>
struct node { struct node *next; };
struct table { struct node *arr; };
struct node heads[3][64];
struct table *t;
int x;
void *check(void *arg) {
  if (heads[2][63].next != &heads[2][63] || t->arr[299].next)
    x = 1;
  return arg;
}
void *set(void *arg) {
  x = 2;
  return arg;
}
int main(void) {
  pthread_t a, b;
  unsigned long i, j;
  for (i = 0; i < 3; i++)
    for (j = 0; j < 64; j++)
      heads[i][j].next = &heads[i][j];
  t = malloc(sizeof *t);
  t->arr = malloc(300 * sizeof *t->arr);
  for (int k = 0; k < 300; k++)
    t->arr[k].next = NULL;
  pthread_create(&a, NULL, check, NULL);
  pthread_create(&b, NULL, set, NULL);
  pthread_join(a, NULL);
  pthread_join(b, NULL);
  return x;
}
