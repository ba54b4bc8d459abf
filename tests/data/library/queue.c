/* Library mode's --init with parameters under --share-args: `queue_init` points the
   queue at its buffer and sets its lock. `queue_push` locks; `queue_peek` reads the
   count without the lock, a race with a push — but only once the queue is initialised:
   on a zeroed queue `queue_push` returns before touching anything. `queue_size` locks
   too, so it does not race with a push. `queue_new` is a constructor: as `--init`, its
   result is the queue the entries share. */
#include <pthread.h>
#include <stdlib.h>

struct queue {
    pthread_mutex_t lock;
    int *items;
    int count;
    int ready;
};

static int storage[4];

void queue_init(struct queue *q)
{
    pthread_mutex_init(&q->lock, 0);
    q->items = storage;
    q->count = 0;
    q->ready = 1;
}

void queue_push(struct queue *q, int v)
{
    if (!q->ready)
        return;
    pthread_mutex_lock(&q->lock);
    if (q->count < 4) {
        q->items[q->count] = v;
        q->count = q->count + 1;
    }
    pthread_mutex_unlock(&q->lock);
}

int queue_peek(struct queue *q)
{
    if (!q->ready)
        return 0;
    return q->count;
}

int queue_size(struct queue *q)
{
    int n;
    if (!q->ready)
        return 0;
    pthread_mutex_lock(&q->lock);
    n = q->count;
    pthread_mutex_unlock(&q->lock);
    return n;
}

struct queue *queue_new(void)
{
    struct queue *q = malloc(sizeof *q);
    if (q)
        queue_init(q);
    return q;
}
