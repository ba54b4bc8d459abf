/* A function without a body that returns `void *` (an allocator of another unit): its
   result is a null pointer or a fresh block, never the pointer `a` itself. Both threads write one element: a race. */
#include <pthread.h>
extern void *alloc_block(unsigned long n);
double (*a)[4];
void *w(void *arg) {
  a[1][1] = (double)(long)arg;
  return 0;
}
int main(void) {
  pthread_t t;
  a = (double (*)[4])alloc_block(8 * sizeof(double));
  if (!a)
    return 1;
  pthread_create(&t, 0, w, (void *)0);
  w((void *)1);
  pthread_join(t, 0);
  return 0;
}
