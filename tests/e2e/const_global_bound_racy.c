#include <pthread.h>
int nthreads = 4;
int last;
void *worker(void *p) {
  int id = *(int *)p;
  if (id == 3)
    last = id;
  return 0;
}
int main(void) {
  pthread_t t[4];
  int ids[4];
  for (int i = 0; i < nthreads; i++) {
    ids[i] = i;
    pthread_create(&t[i], 0, worker, &ids[i]);
  }
  int seen = last;
  for (int i = 0; i < nthreads; i++)
    pthread_join(t[i], 0);
  return seen;
}
