// A spin lock on a C11 atomic flag that backs off with x86's `pause` hint (as thmap's
// and rpmalloc's SPINLOCK_BACKOFF): the assembly touches no memory, the counter is
// guarded by the mutex.
#include <pthread.h>
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
int counter;
int turn;
void *worker(void *arg) {
  for (int i = 0; i < 2 && __atomic_load_n(&turn, __ATOMIC_ACQUIRE) == 0; i++)
    __asm__ volatile("pause" ::: "memory");
  pthread_mutex_lock(&m);
  counter++;
  pthread_mutex_unlock(&m);
  return 0;
}
int main(void) {
  pthread_t t, u;
  pthread_create(&t, 0, worker, 0);
  pthread_create(&u, 0, worker, 0);
  __atomic_store_n(&turn, 1, __ATOMIC_RELEASE);
  pthread_join(t, 0);
  pthread_join(u, 0);
  return counter;
}
