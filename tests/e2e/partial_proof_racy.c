#include <pthread.h>
struct account {
  pthread_mutex_t lock;
  int balance;
} acct = {PTHREAD_MUTEX_INITIALIZER, 0};
int result;
void *deposit(void *arg) {
  pthread_mutex_lock(&acct.lock);
  acct.balance = acct.balance + 1;
  pthread_mutex_unlock(&acct.lock);
  result = 1;
  return 0;
}
int main(void) {
  pthread_t t;
  pthread_create(&t, 0, deposit, 0);
  pthread_mutex_lock(&acct.lock);
  acct.balance = acct.balance - 1;
  pthread_mutex_unlock(&acct.lock);
  int seen = result;
  pthread_join(t, 0);
  return seen;
}
