#include <pthread.h>
int count;
void *worker(void *p) { count = count + 1; return 0; }
/* The workers run only as `prog r`: argc and argv are inputs. */
int main(int argc, char *argv[]) {
  if (argc != 2 || argv[1][0] != 'r' || argv[2] != 0)
    return 0;
  pthread_t a, b;
  pthread_create(&a, 0, worker, 0);
  pthread_create(&b, 0, worker, 0);
  return 0;
}
