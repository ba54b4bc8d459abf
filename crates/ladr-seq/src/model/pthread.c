/* ladr's pthread model (DESIGN §4), added to every sequential program.
 *
 * State lives in the program's own objects: the first int of a mutex, condition variable,
 * rwlock, spinlock or barrier is its state, so a zero-initialised object is a valid free one.
 * Threads are identified by their slot number, which pthread_create stores in the user's
 * pthread_t. The scheduler arrays are defined by the `lazy` pass; the `threads` pass turns
 * each pthread call into a call of the function of the same name with prefix `__ladr_`
 * (passing the calling slot where the model needs it). Nothing here is a data access: the
 * `race` pass never instruments this code. */

void __CPROVER_assume(_Bool assumption);
unsigned int __VERIFIER_nondet_uint(void);
_Bool __VERIFIER_nondet_bool(void);

extern unsigned int __ladr_pc[];
extern unsigned int __ladr_size[];
extern _Bool __ladr_active[];
extern void *__ladr_arg[];
extern void *__ladr_retval[];
extern unsigned int __ladr_nslots;

int __ladr_pthread_create(void *tid, unsigned int slot, void *arg)
{
  if (tid)
    *(unsigned long *)tid = slot;
  __ladr_active[slot] = 1;
  __ladr_arg[slot] = arg;
  return 0;
}

/* The `threads` pass stores the exit value (__ladr_retval[tid]) into the caller's object
 * itself, after this call: that store is a data write of the joining thread. */
int __ladr_pthread_join(unsigned long tid)
{
  __CPROVER_assume(tid < __ladr_nslots);
  __CPROVER_assume(__ladr_pc[tid] == __ladr_size[tid]);
  return 0;
}

/* Mutexes: the first int is the state (0 free, else the owner's slot + 1); a recursive
 * mutex counts its relocks in the second. The type is glibc's __kind field, where
 * PTHREAD_RECURSIVE_MUTEX_INITIALIZER_NP, PTHREAD_ERRORCHECK_MUTEX_INITIALIZER_NP and
 * pthread_mutex_init put it: the fifth int of a pthread_mutex_t with 64-bit headers, the
 * fourth with 32-bit ones, the other of the two being a count glibc alone uses (0 here).
 * Both are read, so the type is right whichever headers preprocessed the program.
 * 0 normal (or default), 1 recursive, 2 error-checking. */
int __ladr_mutex_kind(void *m)
{
  return (((int *)m)[3] | ((int *)m)[4]) & 3;
}

int __ladr_pthread_mutex_lock(void *m, unsigned int slot)
{
  if (*(int *)m == (int)slot + 1) {
    if (__ladr_mutex_kind(m) == 1) {
      ((int *)m)[1] = ((int *)m)[1] + 1;
      return 0;
    }
    if (__ladr_mutex_kind(m) == 2)
      return 35; /* EDEADLK */
  }
  __CPROVER_assume(*(int *)m == 0);
  *(int *)m = (int)slot + 1;
  return 0;
}

int __ladr_pthread_mutex_trylock(void *m, unsigned int slot)
{
  /* POSIX: fails only when the mutex is locked (no spurious failure). */
  if (*(int *)m == (int)slot + 1 && __ladr_mutex_kind(m) == 1) {
    ((int *)m)[1] = ((int *)m)[1] + 1;
    return 0;
  }
  if (*(int *)m == 0) {
    *(int *)m = (int)slot + 1;
    return 0;
  }
  return 16; /* EBUSY */
}

int __ladr_pthread_mutex_unlock(void *m, unsigned int slot)
{
  if (__ladr_mutex_kind(m) != 0 && *(int *)m != (int)slot + 1)
    return 1; /* EPERM */
  if (__ladr_mutex_kind(m) == 1 && ((int *)m)[1] > 0) {
    ((int *)m)[1] = ((int *)m)[1] - 1;
    return 0;
  }
  *(int *)m = 0;
  return 0;
}

int __ladr_pthread_mutex_init(void *m, void *__ladr_attr)
{
  *(int *)m = 0;
  ((int *)m)[1] = 0;
  ((int *)m)[3] = 0;
  ((int *)m)[4] = __ladr_attr ? *(int *)__ladr_attr & 3 : 0;
  return 0;
}

/* A mutex attribute object: its first int is the type (pthread_mutexattr_settype). */
int __ladr_pthread_mutexattr_init(void *__ladr_attr)
{
  *(int *)__ladr_attr = 0;
  return 0;
}

int __ladr_pthread_mutexattr_settype(void *__ladr_attr, int __ladr_kind)
{
  *(int *)__ladr_attr = __ladr_kind & 3;
  return 0;
}

/* Spinlocks (and the initial state of rwlocks): only the state int. */
int __ladr_pthread_spin_lock(void *m, unsigned int slot)
{
  __CPROVER_assume(*(int *)m == 0);
  *(int *)m = (int)slot + 1;
  return 0;
}

int __ladr_pthread_spin_trylock(void *m, unsigned int slot)
{
  if (*(int *)m == 0) {
    *(int *)m = (int)slot + 1;
    return 0;
  }
  return 16; /* EBUSY */
}

int __ladr_pthread_spin_unlock(void *m)
{
  *(int *)m = 0;
  return 0;
}

int __ladr_pthread_spin_init(void *m)
{
  *(int *)m = 0;
  return 0;
}

/* Readers-writer locks: state > 0 readers, -1 a writer, 0 free. */
int __ladr_pthread_rwlock_rdlock(void *l)
{
  __CPROVER_assume(*(int *)l >= 0);
  *(int *)l = *(int *)l + 1;
  return 0;
}

int __ladr_pthread_rwlock_wrlock(void *l)
{
  __CPROVER_assume(*(int *)l == 0);
  *(int *)l = -1;
  return 0;
}

int __ladr_pthread_rwlock_tryrdlock(void *l)
{
  if (*(int *)l >= 0 && __VERIFIER_nondet_bool()) {
    *(int *)l = *(int *)l + 1;
    return 0;
  }
  return 16;
}

int __ladr_pthread_rwlock_trywrlock(void *l)
{
  if (*(int *)l == 0 && __VERIFIER_nondet_bool()) {
    *(int *)l = -1;
    return 0;
  }
  return 16;
}

int __ladr_pthread_rwlock_unlock(void *l)
{
  if (*(int *)l == -1)
    *(int *)l = 0;
  else if (*(int *)l > 0)
    *(int *)l = *(int *)l - 1;
  return 0;
}

/* Barriers: the state counts the threads still to arrive. */
int __ladr_pthread_barrier_init(void *b, unsigned int count)
{
  *(int *)b = (int)count;
  return 0;
}

int __ladr_pthread_barrier_arrive(void *b)
{
  *(int *)b = *(int *)b - 1;
  return 0;
}

int __ladr_pthread_barrier_leave(void *b)
{
  __CPROVER_assume(*(int *)b <= 0);
  return 0;
}

/* Condition variables: signals need no state, since waits may wake up spuriously. */
int __ladr_pthread_cond_signal(void *c)
{
  return 0;
}

/* A timed condition wait's result: woken (0) or timed out (ETIMEDOUT). */
int __ladr_pthread_cond_timed_result(void)
{
  return __VERIFIER_nondet_bool() ? 110 : 0;
}

/* pthread_once: state 0 = not yet run, 1 = running, 2 = done. Returns 1 when the caller
 * must run the routine (and then calls __ladr_pthread_once_done); a caller that comes while
 * another runs it waits until it is done, as POSIX requires. */
int __ladr_pthread_once(void *once)
{
  if (*(int *)once == 0) {
    *(int *)once = 1;
    return 1;
  }
  __CPROVER_assume(*(int *)once == 2);
  return 0;
}

int __ladr_pthread_once_done(void *once)
{
  *(int *)once = 2;
  return 0;
}

/* POSIX semaphores: the state is the count. */
int __ladr_pthread_sem_init(void *s, unsigned int value)
{
  *(int *)s = (int)value;
  return 0;
}

int __ladr_pthread_sem_wait(void *s)
{
  __CPROVER_assume(*(int *)s > 0);
  *(int *)s = *(int *)s - 1;
  return 0;
}

int __ladr_pthread_sem_trywait(void *s)
{
  if (*(int *)s > 0) {
    *(int *)s = *(int *)s - 1;
    return 0;
  }
  return -1;
}

int __ladr_pthread_sem_post(void *s)
{
  *(int *)s = *(int *)s + 1;
  return 0;
}

/* Thread-specific data. Keys are numbered 0, 1, ... as they are created; every slot has its
 * own value for every key, NULL until it sets one. The `threads` pass allows at most 16
 * pthread_key_create sites in the bounded program (each runs at most once), so the table
 * never runs out (64 = threads::MAX_SLOTS rows, 16 = threads::MAX_KEYS columns). The pass
 * stores the new key into the user's pthread_key_t itself (a data write of the calling
 * thread). Destructors are not modelled: a pthread_key_create with a destructor other than
 * NULL is rejected by the `threads` pass, so none is silently skipped. */
void *__ladr_specific[64][16];
unsigned int __ladr_nkeys;

unsigned int __ladr_pthread_key_create(void)
{
  unsigned int key = __ladr_nkeys;
  __ladr_nkeys = key + 1;
  return key;
}

int __ladr_pthread_setspecific(unsigned int key, const void *value, unsigned int slot)
{
  if (key >= __ladr_nkeys)
    return 22; /* EINVAL */
  __ladr_specific[slot][key] = (void *)value;
  return 0;
}

void *__ladr_pthread_getspecific(unsigned int key, unsigned int slot)
{
  if (key >= __ladr_nkeys)
    return 0;
  return __ladr_specific[slot][key];
}

/* Deleting a key changes nothing ladr tracks (using it afterwards is undefined). */
int __ladr_pthread_key_delete(unsigned int key)
{
  return 0;
}

/* Heap objects whose size is not a constant. CBMC 6.6 crashes (invariant in value_sett /
   shadow memory) on a dynamic object of symbolic size allocated in a function that runs
   more than once, which every slot function does (once per round). Such an object gets
   `block` bytes instead (--heap-block, 128 by default: the call passes the constant);
   executions that ask for more are not explored (a "heap-size" cut). */
void *__ladr_malloc(unsigned long n, unsigned long block)
{
  __CPROVER_assume(n <= block);
  return __CPROVER_allocate(block, 0);
}

void *__ladr_calloc(unsigned long k, unsigned long s, unsigned long block)
{
  __CPROVER_assume(k <= block && s <= block && k * s <= block);
  return __CPROVER_allocate(block, 1);
}

/* main's arguments: argc is 1 to 4, argv[0..argc-1] are strings of at most 15 arbitrary
   characters and argv[argc] is null (envp points at an empty list). Longer command lines
   are not explored (an "arguments" cut when main reads its parameters). */
char __VERIFIER_nondet_char(void);
char __ladr_argv_text[4][16];
char *__ladr_argv[5];

int __ladr_main_args(void)
{
  int n = (int)__VERIFIER_nondet_uint();
  __CPROVER_assume(n >= 1 && n <= 4);
  for (int i = 0; i < 4; i++) {
    for (int j = 0; j < 15; j++)
      __ladr_argv_text[i][j] = __VERIFIER_nondet_char();
    __ladr_argv[i] = i < n ? &__ladr_argv_text[i][0] : (char *)0;
  }
  return n;
}
