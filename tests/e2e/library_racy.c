#include <pthread.h>
#include <string.h>
char buf[8];
void *w(void *p) { memset(buf, 0, sizeof buf); return 0; }
void *r(void *p) { char c = buf[0]; return 0; }
int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, w, 0);
  pthread_create(&b, 0, r, 0);
  return 0;
}
