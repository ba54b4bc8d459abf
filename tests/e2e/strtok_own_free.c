#include <pthread.h>
/* The program's own strtok, which keeps no state: not libc's. */
char *strtok(char *s, const char *delim) {
  return s;
}
void *split(void *arg) {
  char line[8] = "a b";
  char *word = strtok(line, " ");
  return word;
}
int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, split, 0);
  pthread_create(&b, 0, split, 0);
  pthread_join(a, 0);
  pthread_join(b, 0);
  return 0;
}
