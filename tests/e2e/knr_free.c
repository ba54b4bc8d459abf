#include <pthread.h>
unsigned long total;
unsigned long add(crc, buf, len) unsigned long crc; const unsigned char *buf; unsigned len; {
  while (len--) crc += *buf++;
  return crc;
}
void *worker(void *arg) {
  total = add(total, (const unsigned char *)"ab", 2);
  return arg;
}
int main(void) {
  pthread_t t;
  pthread_create(&t, 0, worker, 0);
  pthread_join(t, 0);
  total = add(total, (const unsigned char *)"c", 1);
  return total != 'a' + 'b' + 'c';
}
