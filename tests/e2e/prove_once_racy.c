// The twin: the worker reads the table before its pthread_once, while another
// thread may be running init_table.
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
    int v = table[2];
    pthread_once(&once, init_table);
    return (void *)(long)(v + ready);
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
