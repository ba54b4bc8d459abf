#include <pthread.h>
#include <string.h>
void *split(void *arg) {
  char line[8] = "a b";
  char *save;
  char *word = strtok_r(line, " ", &save);
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
