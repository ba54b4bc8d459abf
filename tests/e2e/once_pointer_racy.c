#include <pthread.h>
int config;
pthread_once_t once = PTHREAD_ONCE_INIT;
struct module {
  pthread_once_t *control;
  void (*setup)(void);
};
void load(void) { config = 42; }
struct module mod = {&once, load};
void *user(void *a) {
  struct module *m = a;
  pthread_once(m->control, m->setup);
  return (void *)(long)config;
}
void *other(void *a) {
  struct module *m = a;
  return (void *)(long)config;
}
int main(void) {
  pthread_t t1, t2;
  pthread_create(&t1, 0, user, &mod);
  pthread_create(&t2, 0, other, &mod);
  return 0;
}
