// A race that needs three rounds: `t` writes `x` only after a three-step handshake with main
// (atomic flags, which never race), and main writes `x` after the handshake's last step.
#include <pthread.h>
extern void __VERIFIER_assume(int);
int x, s1, s2, s3;
void *t(void *p) {
  __atomic_store_n(&s1, 1, __ATOMIC_SEQ_CST);
  __VERIFIER_assume(__atomic_load_n(&s2, __ATOMIC_SEQ_CST) == 1); __atomic_store_n(&s3, 1, __ATOMIC_SEQ_CST);
  x = 1;
  return 0;
}
int main(void) {
  pthread_t h;
  pthread_create(&h, 0, t, 0);
  __VERIFIER_assume(__atomic_load_n(&s1, __ATOMIC_SEQ_CST) == 1);
  __atomic_store_n(&s2, 1, __ATOMIC_SEQ_CST); __VERIFIER_assume(__atomic_load_n(&s3, __ATOMIC_SEQ_CST) == 1);
  x = 2;
  return 0;
}
