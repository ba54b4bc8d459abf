// pthread_once: every thread reads the table only after pthread_once returned, so
// after init_table finished (proved: the `once` rule, prove/once.rs).
#include <pthread.h>
int table[4];
int ready;
pthread_once_t once = PTHREAD_ONCE_INIT;
void init_table(void) {
    for (int i = 0; i < 4; i++)
        table[i] = i * 3;
    ready = 1;
}
void *worker(void *arg) {
    pthread_once(&once, init_table);
    return (void *)(long)(table[2] + ready);
}
int main(void) {
    pthread_t t1, t2;
    pthread_create(&t1, 0, worker, 0);
    pthread_create(&t2, 0, worker, 0);
    pthread_once(&once, init_table);
    int r = table[1];
    pthread_join(t1, 0);
    pthread_join(t2, 0);
    return r;
}
