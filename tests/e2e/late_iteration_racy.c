/* The race needs the last iteration of a loop of a constant bound: the constant-loop probe
   (loops cut after 2 iterations) finds no race, the first bound pair (the loop unwound
   completely) finds it. The answer is that pair's race, not the probe's. */
#include <pthread.h>

int x;

void *worker(void *arg)
{
  for (int i = 0; i < 20; i++)
    if (i == 19)
      x = i;
  return 0;
}

int main(void)
{
  pthread_t t;
  pthread_create(&t, 0, worker, 0);
  int v = x;
  pthread_join(t, 0);
  return v;
}
