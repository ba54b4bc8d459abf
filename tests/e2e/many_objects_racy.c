#include <pthread.h>
/* 400 objects whose addresses are taken: more than CBMC numbers by default (256), so ladr
   runs CBMC again with more object bits. */
#define G(n) int g##n;
#define G10(n) G(n##0) G(n##1) G(n##2) G(n##3) G(n##4) G(n##5) G(n##6) G(n##7) G(n##8) G(n##9)
#define G100(n) G10(n##0) G10(n##1) G10(n##2) G10(n##3) G10(n##4) G10(n##5) G10(n##6) G10(n##7) G10(n##8) G10(n##9)
G100(1) G100(2) G100(3) G100(4)
#define P(n) &g##n,
#define P10(n) P(n##0) P(n##1) P(n##2) P(n##3) P(n##4) P(n##5) P(n##6) P(n##7) P(n##8) P(n##9)
#define P100(n) P10(n##0) P10(n##1) P10(n##2) P10(n##3) P10(n##4) P10(n##5) P10(n##6) P10(n##7) P10(n##8) P10(n##9)
int *all[] = { P100(1) P100(2) P100(3) P100(4) };
void *t(void *p) { *all[399] = 1; return 0; }
int main(void) {
  pthread_t a;
  pthread_create(&a, 0, t, 0);
  return g499;
}
