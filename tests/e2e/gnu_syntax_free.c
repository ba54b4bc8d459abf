#include <pthread.h>
typedef struct __attribute__((__aligned__(sizeof(void *)))) counter { long n; } counter_t;
enum __attribute__((packed)) mode { OFF, ON __attribute__((deprecated)) = 1 };
static counter_t c;
static unsigned __int128 wide;
__extension__ typedef unsigned long long u64;
int helper(int x) __asm__("ladr_helper_asm_label") __attribute__((pure));
int helper(int x) { return x + 1; }
void *worker(void *arg __attribute__((unused))) {
  __label__ out;
  long v = __extension__ ({ long t = c.n; t + __alignof__(c) + __builtin_types_compatible_p(u64, unsigned long long); });
  switch ((int)v) {
  case 0: v++; __attribute__((fallthrough));
  default: break;
  }
out: __attribute__((unused));
  c.n = v + (long)(int __attribute__((unused)))helper(0);
  return (void *)(unsigned long)wide;
}
int main(void) {
  pthread_t t;
  pthread_create(&t, 0, worker, 0);
  pthread_join(t, 0);
  c.n = 1;
  return 0;
}
