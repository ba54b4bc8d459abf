/* A matrix whose rows have a variable length: `(&b[0][0])[5]` is `b[1][2]` when rows have 3
   elements. The thread writes it through a pointer to the first element while main reads
   it by row and column: a race. */
#include <pthread.h>
int n = 3;
double *first;
void *w(void *arg) {
  first[5] = 1.0;
  return 0;
}
int main(void) {
  pthread_t t;
  double b[n][n];
  first = &b[0][0];
  pthread_create(&t, 0, w, 0);
  int j = 0;
  double x = b[1][j + 2];
  pthread_join(t, 0);
  return (int)x;
}
