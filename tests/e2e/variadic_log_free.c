#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
int level = 1;
int count;
void log_log(int lvl, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  int n = va_arg(ap, int);
  if (n > 2)
    level = 0; /* never: the arguments are 1 and 2 */
  pthread_mutex_lock(&lock);
  if (lvl >= level) {
    count += n;
    vfprintf(stderr, fmt, ap);
  }
  pthread_mutex_unlock(&lock);
  va_end(ap);
}
void *worker(void *p) {
  log_log(2, "%d %s\n", 1, "worker");
  return 0;
}
int main(void) {
  pthread_t t;
  pthread_create(&t, 0, worker, 0);
  pthread_mutex_lock(&lock);
  level = 3;
  pthread_mutex_unlock(&lock);
  log_log(4, "%d\n", 2);
  pthread_join(t, 0);
  return 0;
}
