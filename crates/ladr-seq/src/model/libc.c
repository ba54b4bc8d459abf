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

/* The result of a function without a body that returns a pointer to an object: a null
   pointer or a fresh object of `n` bytes, never one of the program's objects (stated in the
   answer's assumptions). */
void *__ladr_fresh_object(unsigned long n)
{
  if (__VERIFIER_nondet_bool())
    return 0;
  return __CPROVER_allocate(n, 0);
}
