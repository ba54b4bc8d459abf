#include <pthread.h>
int n = 3, g;
void *w(void *a) { g = 1; return 0; }
int main(void) {
  pthread_t t;
  double b[n][n];
  double (*r)[n] = b + 1;
  pthread_create(&t, 0, w, 0);
  g = 2;
  pthread_join(t, 0);
  return (int)r[0][0];
}
