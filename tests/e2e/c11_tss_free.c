#include <threads.h>
#include <stdlib.h>
tss_t key;
int slots[2];
int worker(void *p) {
  int *mine = p;
  if (tss_set(key, mine) != thrd_success)
    return 1;
  int *v = tss_get(key);
  *v = *v + 1;
  return 0;
}
int main(void) {
  thrd_t a, b;
  tss_create(&key, NULL);
  thrd_create(&a, worker, &slots[0]);
  thrd_create(&b, worker, &slots[1]);
  thrd_join(a, 0);
  thrd_join(b, 0);
  tss_delete(key);
  return 0;
}
