#include <threads.h>
int *table;
int storage[4];
int initialised;
once_flag flag = ONCE_FLAG_INIT;
void init(void) {
  table = storage;
  initialised = 1;
}
int user(void *p) {
  call_once(&flag, init);
  table[(long)p] = 1;
  return 0;
}
int main(void) {
  thrd_t a, b;
  thrd_create(&a, user, (void *)0);
  thrd_create(&b, user, (void *)1);
  thrd_join(a, 0);
  thrd_join(b, 0);
  return initialised;
}
