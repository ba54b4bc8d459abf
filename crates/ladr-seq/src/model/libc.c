/* C library functions that CBMC 6.6 has no model of, but whose results programs compute
 * with (indices, sizes, control): the `threads` pass turns a call of `ffs` (with no body in
 * the program) into a call of `__ladr_ffs`, and so on. Without a body, CBMC would return
 * any value (two threads picking the same slot from a free mask, a negative index). CBMC
 * already models `abs`, `labs`, `strlen`, ..., and the `__builtin_ffs`/`ctz`/`clz`/
 * `popcount` family (checked on 6.6.0). Every thread has its own errno: glibc's `errno` is
 * `(*__errno_location ())`, which the pass turns into `__ladr___errno_location(slot)`. */

int __ladr_ffs(int i)
{
  return __builtin_ffs(i);
}

int __ladr_ffsl(long i)
{
  return __builtin_ffsl(i);
}

int __ladr_ffsll(long long i)
{
  return __builtin_ffsll(i);
}

int __ladr___builtin_parity(unsigned int x)
{
  return __builtin_popcount(x) & 1;
}

int __ladr___builtin_parityl(unsigned long x)
{
  return __builtin_popcountl(x) & 1;
}

int __ladr___builtin_parityll(unsigned long long x)
{
  return __builtin_popcountll(x) & 1;
}

/* One errno per slot (64 = threads::MAX_SLOTS). */
int __ladr_errno[64];

int *__ladr___errno_location(unsigned int slot)
{
  return &__ladr_errno[slot];
}

/* Pipes and socket pairs: blocking byte channels (issue 16). `pipe` and `socketpair` make
 * a channel of two ends, numbered from 1000 (2c and 2c+1 for channel c, at most 8
 * channels; a ninth fails with -1). Bytes written to one end are read at the other;
 * `read` blocks until some are there or the other end is closed (then it returns 0), so
 * what a thread wrote before its `write` is ordered before what the reader does after its
 * `read`. The first 16 bytes through each end keep their values, later ones read as they
 * were in the reader's buffer. Only programs that call `pipe` or `socketpair` have their
 * `read`, `write`, `recv`, `send` and `close` calls turned into these; on another
 * descriptor they return any result between -1 and the count. */
char __ladr_chan_data[16][16];
unsigned long __ladr_chan_written[16];
unsigned long __ladr_chan_taken[16];
_Bool __ladr_chan_closed[16];
unsigned int __ladr_nchannels;
long __VERIFIER_nondet_long(void);

int __ladr_chan_end(int fd)
{
  if (fd >= 1000 && fd < 1000 + 2 * (int)__ladr_nchannels)
    return fd - 1000;
  return -1;
}

int __ladr_chan_open(int *fds)
{
  unsigned int c = __ladr_nchannels;
  if (c >= 8)
    return -1;
  __ladr_nchannels = c + 1;
  fds[0] = 1000 + 2 * (int)c;
  fds[1] = 1000 + 2 * (int)c + 1;
  return 0;
}

int __ladr_pipe(int *fds)
{
  return __ladr_chan_open(fds);
}

int __ladr_socketpair(int domain, int type, int protocol, int *fds)
{
  return __ladr_chan_open(fds);
}

long __ladr_chan_other(unsigned long n)
{
  long r = __VERIFIER_nondet_long();
  __CPROVER_assume(r >= -1 && r <= (long)n);
  return r;
}

long __ladr_write(int fd, const void *buf, unsigned long n)
{
  int e = __ladr_chan_end(fd);
  if (e < 0)
    return __ladr_chan_other(n);
  int to = e ^ 1;
  if (__ladr_chan_closed[to] || __ladr_chan_closed[e])
    return -1;
  unsigned long at = __ladr_chan_written[to];
  for (int i = 0; i < 16; i++)
    if ((unsigned long)i < n && at + i < 16)
      __ladr_chan_data[to][at + i] = ((const char *)buf)[i];
  __ladr_chan_written[to] = at + n;
  return (long)n;
}

long __ladr_read(int fd, void *buf, unsigned long n)
{
  int e = __ladr_chan_end(fd);
  if (e < 0)
    return __ladr_chan_other(n);
  if (n == 0)
    return 0;
  __CPROVER_assume(__ladr_chan_written[e] > __ladr_chan_taken[e] || __ladr_chan_closed[e ^ 1]);
  unsigned long from = __ladr_chan_taken[e];
  unsigned long avail = __ladr_chan_written[e] - from;
  if (avail == 0)
    return 0;
  unsigned long k = (unsigned long)__VERIFIER_nondet_long();
  __CPROVER_assume(k >= 1 && k <= avail && k <= n);
  for (int i = 0; i < 16; i++)
    if ((unsigned long)i < k && from + i < 16)
      ((char *)buf)[i] = __ladr_chan_data[e][from + i];
  __ladr_chan_taken[e] = from + k;
  return (long)k;
}

long __ladr_send(int fd, const void *buf, unsigned long n, int flags)
{
  return __ladr_write(fd, buf, n);
}

long __ladr_recv(int fd, void *buf, unsigned long n, int flags)
{
  return __ladr_read(fd, buf, n);
}

int __ladr_close(int fd)
{
  int e = __ladr_chan_end(fd);
  if (e >= 0)
    __ladr_chan_closed[e] = 1;
  return 0;
}

/* The result of a function without a body that returns a pointer to an incomplete type: a
   null pointer or a fresh object of `n` bytes, never one of the program's objects (stated in the
   answer's assumptions). */
void *__ladr_fresh_object(unsigned long n)
{
  if (__VERIFIER_nondet_bool())
    return 0;
  return __CPROVER_allocate(n, 0);
}

/* The result of a function without a body that returns a pointer to an object (or `void *`):
   a null pointer or a fresh object of any size (the program may use it as an array of any
   length, or `void *` as an object of any type, `(double (*)[500]) alloc(…)`), never one of
   the program's objects. */
void *__ladr_fresh_block(void)
{
  if (__VERIFIER_nondet_bool())
    return 0;
  return __CPROVER_allocate((unsigned long)__VERIFIER_nondet_long(), 0);
}

/* The memory of a variable-length array whose rows have a variable length, made a static of
   its slot as its lengths and this block (`threads/vla.rs`): exactly its bytes. Here, so
   that only programs with one have it. */
void *__ladr_vla(unsigned long n)
{
  return __CPROVER_allocate(n, 0);
}

/* The siblings of `__ladr_malloc` (`model/pthread.c`) for `valloc`, `realloc` and
   `posix_memalign` of a size that is not a constant: `block` bytes (--heap-block), a
   "heap-size" cut. Here, so that only programs that call one have them. */
void *__ladr_valloc(unsigned long n, unsigned long block)
{
  __CPROVER_assume(n <= block);
  return __CPROVER_allocate(block, 0);
}

/* The old block's bytes, as far as both objects have them, then the old block freed. */
void *__ladr_realloc(void *p, unsigned long n, unsigned long block)
{
  __CPROVER_assume(n <= block);
  void *q = __CPROVER_allocate(block, 0);
  if (p) {
    __CPROVER_array_replace((char *)q, (char *)p);
    free(p);
  }
  return q;
}

int __ladr_posix_memalign(void **p, unsigned long a, unsigned long n, unsigned long block)
{
  __CPROVER_assume(n <= block);
  *p = __CPROVER_allocate(block, 0);
  return 0;
}

/* `mmap` of a length that is not a constant, as CBMC's model does it (a fixed mapping is
   the address asked for; otherwise a fresh object, zeroed when anonymous, MAP_ANONYMOUS
   being 0x20 and MAP_FIXED 0x10 on Linux) but of one page, 4096 bytes (a mapping is
   pages; CBMC's memory grows with the object's size: 126 MB for a page, 785 MB for 64 KiB,
   11 GB for 1 MiB on a two-thread program): a longer mapping is not explored, a
   "heap-size" cut. CBMC's
   object of the symbolic length made CBMC 6.6 abort at goto_symex_state.cpp:294 when
   shadow memory was set on it (rpmalloc's spans). */
void *__ladr_mmap(void *a, unsigned long n, int prot, int flags, int fd, long off)
{
  if (a != 0 && (flags & 0x10) != 0)
    return a;
  __CPROVER_assume(n <= 4096);
  if ((flags & 0x20) != 0)
    return __CPROVER_allocate(4096, 1);
  return __CPROVER_allocate(4096, 0);
}

void *__ladr_mmap64(void *a, unsigned long n, int prot, int flags, int fd, long off)
{
  return __ladr_mmap(a, n, prot, flags, fd, off);
}
