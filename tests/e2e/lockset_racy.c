#include <pthread.h>
int balance;
pthread_mutex_t m;
void *deposit(void *a) {
  pthread_mutex_lock(&m);
  balance = balance + 1;
  pthread_mutex_unlock(&m);
  return 0;
}
int main(void) {
  pthread_t t1, t2;
  int b;
  pthread_create(&t1, 0, deposit, 0);
  pthread_create(&t2, 0, deposit, 0);
  pthread_mutex_lock(&m);
  pthread_mutex_unlock(&m);
  b = balance;
  return b;
}
