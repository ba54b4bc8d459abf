#include <pthread.h>
static char lowered[64];
static char *lower(const char *s) {
  int i = 0;
  while (s[i] && i < 63) { lowered[i] = (char)(s[i] | 32); i++; }
  lowered[i] = 0;
  return lowered;
}
void *w(void *p) { lower("Ab"); return 0; }
int main(void) {
  pthread_t a, b;
  lower("Configuration:Section:Key"); /* 25 characters before the threads start */
  pthread_create(&a, 0, w, 0);
  pthread_create(&b, 0, w, 0);
  return 0;
}
