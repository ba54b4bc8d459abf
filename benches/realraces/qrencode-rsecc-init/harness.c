/* Harness of ours for a race that fukuchi/libqrencode fixed in 1ef7a8d04e (see ./source);
   it calls the library only through its own functions, as a unit test would. */
/* Two threads compute Reed-Solomon error-correction codewords at once, as two threads
   encoding QR symbols do (libqrencode's tests/test_rs.c calls RSECC_encode directly). */
#include <pthread.h>
#include <string.h>

#include "rsecc.h"

static unsigned char ecc[2][2];
static int result[2];

static void *encode_worker(void *arg) {
  int id = *(int *)arg;
  /* Two data codewords, two error-correction codewords each. */
  const unsigned char data[2] = {0x40, (unsigned char)(0x11 * (id + 1))};
  result[id] = RSECC_encode(2, 2, data, ecc[id]);
  return NULL;
}

int main(void) {
  pthread_t t[2];
  int ids[2] = {0, 1};
  for (int i = 0; i < 2; i++)
    pthread_create(&t[i], NULL, encode_worker, &ids[i]);
  for (int i = 0; i < 2; i++)
    pthread_join(t[i], NULL);
  /* Both encodings succeeded (an ECC length of 2 is within the supported range). */
  return result[0] != 0 || result[1] != 0;
}
