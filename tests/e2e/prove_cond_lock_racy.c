// The twin: after the increment, main tests `use_lock` at its old value: with use_lock
// 0 it takes no lock, the increment makes the test true, and it writes `total` beside
// the worker.
#include <pthread.h>
extern int __VERIFIER_nondet_int(void);
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
int total;
void *worker(void *arg) {
    pthread_mutex_lock(&m);
    total += 2;
    pthread_mutex_unlock(&m);
    return 0;
}
int main(void) {
    pthread_t t;
    pthread_create(&t, 0, worker, 0);
    int use_lock = __VERIFIER_nondet_int();
    if (use_lock)
        pthread_mutex_lock(&m);
    use_lock++;
    if (use_lock)
        total += 1;
    use_lock--;
    if (use_lock)
        pthread_mutex_unlock(&m);
    pthread_join(t, 0);
    return total;
}
