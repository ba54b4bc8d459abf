// Barriers: main fills the input before the first barrier, the summer writes the result
// between the two, the reader and main read it after the second (proved: the `barrier`
// rule, prove/barrier.rs: every access of `input` and `result` by threads that may run
// together lies in another phase of one barrier).
#include <pthread.h>
int input[2];
int result;
pthread_barrier_t filled, done;
void *summer(void *arg) {
    pthread_barrier_wait(&filled);
    result = input[0] + input[1];
    pthread_barrier_wait(&done);
    return 0;
}
void *reader(void *arg) {
    pthread_barrier_wait(&filled);
    int v = input[1];
    pthread_barrier_wait(&done);
    return (void *)(long)(v + result);
}
int main(void) {
    pthread_t s, r;
    pthread_barrier_init(&filled, 0, 3);
    pthread_barrier_init(&done, 0, 3);
    pthread_create(&s, 0, summer, 0);
    pthread_create(&r, 0, reader, 0);
    input[0] = 3;
    input[1] = 4;
    pthread_barrier_wait(&filled);
    pthread_barrier_wait(&done);
    int total = result;
    pthread_join(s, 0);
    pthread_join(r, 0);
    return total;
}
