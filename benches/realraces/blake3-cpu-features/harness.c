/* Two threads hash a short message at once, the first use of the library in the process:
   both detect the CPU features lazily (blake3_dispatch.c, get_cpu_features). */
#include <pthread.h>
#include <stdint.h>
#include <string.h>

#include "blake3.h"

static uint8_t digest[2][BLAKE3_OUT_LEN];

static void *hash_worker(void *arg) {
  int id = *(int *)arg;
  blake3_hasher hasher;
  const char msg[] = "abc";
  blake3_hasher_init(&hasher);
  blake3_hasher_update(&hasher, msg, strlen(msg));
  blake3_hasher_finalize(&hasher, digest[id], BLAKE3_OUT_LEN);
  return NULL;
}

int main(void) {
  pthread_t t[2];
  int ids[2] = {0, 1};
  for (int i = 0; i < 2; i++)
    pthread_create(&t[i], NULL, hash_worker, &ids[i]);
  for (int i = 0; i < 2; i++)
    pthread_join(t[i], NULL);
  /* Both threads hashed the same message: the digests agree. */
  return memcmp(digest[0], digest[1], BLAKE3_OUT_LEN) != 0;
}
