// Conditional locking guarded by the same condition: main locks `m` only when `use_lock`
// is set, and touches `total` only under the same test (shifted by the increment between
// them), so every write of `total` holds `m`. Proved race-free by the static analysis.
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
    if (use_lock - 1)
        total += 1;
    use_lock--;
    if (use_lock)
        pthread_mutex_unlock(&m);
    pthread_join(t, 0);
    return total;
}
