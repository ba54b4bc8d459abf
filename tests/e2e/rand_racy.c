#include <pthread.h>
#include <stdlib.h>
int rolls[2];
void *roll(void *arg) {
  int *out = arg;
  *out = rand() % 6;
  return 0;
}
int main(void) {
  pthread_t a, b;
  srand(7);
  pthread_create(&a, 0, roll, &rolls[0]);
  pthread_create(&b, 0, roll, &rolls[1]);
  pthread_join(a, 0);
  pthread_join(b, 0);
  return 0;
}
