#include <pthread.h>
#include <stdio.h>
enum level { DEBUG, INFO, WARN };
struct name {
  enum level id;
  const char *str;
};
static struct name names[] = {{DEBUG, "DEBUG"}, {INFO, "INFO"}, {WARN, "WARN"}};
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
void *logger(void *arg) {
  enum level l = INFO;
  pthread_mutex_lock(&m);
  printf("[%s]\n", names[l].str);
  pthread_mutex_unlock(&m);
  return 0;
}
void *renamer(void *arg) {
  names[INFO].str = "info";
  return 0;
}
int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, logger, 0);
  pthread_create(&b, 0, renamer, 0);
  pthread_join(a, 0);
  pthread_join(b, 0);
  return 0;
}
