#include <pthread.h>
int count;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
void *worker(void *p) { pthread_mutex_lock(&m); count = count + 1; pthread_mutex_unlock(&m); return 0; }
/* The workers run only as `prog r`: argc and argv are inputs. */
int main(int argc, char *argv[]) {
  if (argc != 2 || argv[1][0] != 'r' || argv[2] != 0)
    return 0;
  pthread_t a, b;
  pthread_create(&a, 0, worker, 0);
  pthread_create(&b, 0, worker, 0);
  return 0;
}
