#include <pthread.h>
struct account { pthread_mutex_t lock; int balance; int audits; };
struct account acct = { PTHREAD_MUTEX_INITIALIZER, 0, 0 };
pthread_mutex_t audit[2] = { PTHREAD_MUTEX_INITIALIZER, PTHREAD_MUTEX_INITIALIZER };
void *deposit(void *a) {
  pthread_mutex_lock(&acct.lock);
  acct.balance = acct.balance + 1;
  pthread_mutex_unlock(&acct.lock);
  return 0;
}
void *audit_it(void *a) {
  pthread_mutex_lock(&audit[1]);
  acct.audits = acct.audits + 1;
  pthread_mutex_unlock(&audit[1]);
  return 0;
}
int main(void) {
  pthread_t t1, t2, t3;
  pthread_create(&t1, 0, deposit, 0);
  pthread_create(&t2, 0, deposit, 0);
  pthread_create(&t3, 0, audit_it, 0);
  pthread_mutex_lock(&audit[1]);
  acct.audits = 0;
  pthread_mutex_unlock(&audit[1]);
  return 0;
}
