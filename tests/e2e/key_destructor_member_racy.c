#include <pthread.h>
#include <stdlib.h>
int released;
pthread_key_t key;
void release_counted(void *p) {
  released++;
  free(p);
}
void release_plain(void *p) {
  free(p);
}
struct ops {
  void (*destroy)(void *);
};
struct ops counted = {release_counted}, plain = {release_plain};
void *worker(void *a) {
  pthread_setspecific(key, malloc(sizeof(int)));
  return 0;
}
int main(void) {
  pthread_t t1, t2;
  struct ops *ops = &counted;
  pthread_key_create(&key, ops->destroy);
  pthread_create(&t1, 0, worker, 0);
  pthread_create(&t2, 0, worker, 0);
  return 0;
}
