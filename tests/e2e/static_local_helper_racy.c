#include <pthread.h>
int next_id(void) {
  static int last = 0;
  last = last + 1;
  return last;
}
void *reader(void *p) { int id = next_id(); return 0; }
void *writer(void *p) { int id = next_id(); return 0; }
int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, reader, 0);
  pthread_create(&b, 0, writer, 0);
  return 0;
}
