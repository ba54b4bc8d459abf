#include <unistd.h>
#include <sys/select.h>
#include <pthread.h>
int shared;
intptr_t p;
fd_set fds;
void *worker(void *arg) { shared++; return arg; }
