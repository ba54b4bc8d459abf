#include <pthread.h>
#include <stdio.h>
#include <time.h>
enum level { DEBUG, INFO, WARN };
static const struct pair {
  const enum level id;
  const char *str;
} levels[] = {{DEBUG, "DEBUG"}, {INFO, "INFO"}, {WARN, "WARN"}};
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static int header(FILE *fp, enum level l) {
  time_t t;
  struct tm result, *tm;
  t = time(NULL);
  tm = localtime_r(&t, &result);
  if (tm == NULL)
    return -1;
  return fprintf(fp, "[%d-%02d][%-5s] ", tm->tm_year + 1900, tm->tm_mon + 1, levels[l].str);
}
void *worker(void *arg) {
  pthread_mutex_lock(&m);
  header(stdout, INFO);
  pthread_mutex_unlock(&m);
  return 0;
}
int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, worker, 0);
  pthread_create(&b, 0, worker, 0);
  pthread_join(a, 0);
  pthread_join(b, 0);
  return 0;
}
