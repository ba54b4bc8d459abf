#include <pthread.h>
struct account {
  pthread_mutex_t lock;
  int balance;
  int done;
} acct = {PTHREAD_MUTEX_INITIALIZER, 0, 0};
int result;
void *deposit(void *arg) {
  pthread_mutex_lock(&acct.lock);
  acct.balance = acct.balance + 1;
  pthread_mutex_unlock(&acct.lock);
  result = 1;
  pthread_mutex_lock(&acct.lock);
  acct.done = 1;
  pthread_mutex_unlock(&acct.lock);
  return 0;
}
int main(void) {
  pthread_t t;
  pthread_create(&t, 0, deposit, 0);
  pthread_mutex_lock(&acct.lock);
  acct.balance = acct.balance - 1;
  int done = acct.done;
  pthread_mutex_unlock(&acct.lock);
  int seen = 0;
  if (done)
    seen = result;
  pthread_join(t, 0);
  return seen;
}
