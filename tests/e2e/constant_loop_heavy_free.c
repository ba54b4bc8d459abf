/* Two threads fill disjoint halves of an array in loops of a constant bound of 100 (race
   free). Unwound completely, the loops make a program too large for CBMC within seconds;
   the constant-loop probe (loops cut after 2 iterations) answers "no race" at once. */
#include <pthread.h>

int a[200];

void *fill(void *arg)
{
  int k = *(int *)arg;
  for (int i = 0; i < 100; i++)
    a[k * 100 + i] = a[k * 100 + (i + 1) % 100] + i;
  return 0;
}

int main(void)
{
  pthread_t t[2];
  int ids[2] = {0, 1};
  for (int i = 0; i < 2; i++)
    pthread_create(&t[i], 0, fill, &ids[i]);
  for (int i = 0; i < 2; i++)
    pthread_join(t[i], 0);
  return a[0];
}
