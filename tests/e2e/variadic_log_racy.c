#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
int level = 1;
int count;
static void log_vlog(const char *fmt, va_list ap) { vfprintf(stderr, fmt, ap); }
void log_log(int lvl, const char *fmt, ...) {
  va_list ap;
  if (lvl < level)
    return;
  va_start(ap, fmt);
  count += va_arg(ap, int);
  log_vlog(fmt, ap);
  va_end(ap);
}
void *worker(void *p) {
  log_log(2, "%d %s\n", 1, "worker");
  return 0;
}
int main(void) {
  pthread_t t;
  pthread_create(&t, 0, worker, 0);
  level = 3;
  pthread_join(t, 0);
  return count == 1 ? 0 : 1;
}
