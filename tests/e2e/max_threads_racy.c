#include <pthread.h>
int x;
int cells[4];
void *work(void *a) { cells[*(int *)a] = 1; return 0; }
void *late(void *a) { x = 1; return 0; }
int main(void) {
  pthread_t t[5];
  int ids[4] = {0, 1, 2, 3};
  for (int i = 0; i < 4; i++)
    pthread_create(&t[i], 0, work, &ids[i]);
  pthread_create(&t[4], 0, late, 0);
  return x;
}
