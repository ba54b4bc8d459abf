#include <pthread.h>
#include <string.h>
struct config {
  int version;
  int len;
  char name[8];
} cfg;
void *reload(void *arg) {
  struct config n = {2, 5, "fresh"};
  memcpy(&cfg, &n, sizeof cfg);
  return 0;
}
void *reader(void *arg) {
  int len = cfg.len;
  return (void *)(long)len;
}
int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, reload, 0);
  pthread_create(&b, 0, reader, 0);
  pthread_join(a, 0);
  pthread_join(b, 0);
  return 0;
}
