/* Deferred cancellation (issue 27), added to programs that call pthread_cancel. A request
 * is pending for a slot once pthread_cancel names it; `inline` makes each cancellation
 * point of the program ask __ladr_pthread_canceled(slot), and act on a pending request the
 * slot has not disabled (pthread_setcancelstate) by running its cleanup handlers and
 * exiting with PTHREAD_CANCELED. The state is 0 enabled, 1 disabled (glibc's
 * PTHREAD_CANCEL_ENABLE and PTHREAD_CANCEL_DISABLE). */
_Bool __ladr_cancel_pending[64];
int __ladr_cancel_disabled[64];

int __ladr_pthread_cancel(unsigned long tid)
{
  __CPROVER_assume(tid < __ladr_nslots);
  __ladr_cancel_pending[tid] = 1;
  return 0;
}

int __ladr_pthread_canceled(unsigned long slot)
{
  return __ladr_cancel_pending[slot] && !__ladr_cancel_disabled[slot];
}

int __ladr_pthread_setcancelstate(int state, void *old, unsigned int slot)
{
  if (old)
    *(int *)old = __ladr_cancel_disabled[slot];
  __ladr_cancel_disabled[slot] = state & 1;
  return 0;
}
