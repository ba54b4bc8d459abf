// The twin: the main thread counts after joining.
#include <pthread.h>
#include <dirent.h>
int count;
void *t(void *a) {
  DIR *d = opendir(".");
  if (d) { struct dirent *e = readdir(d); if (e) count++; closedir(d); }
  return 0;
}
int main(void) {
  pthread_t h;
  pthread_create(&h, 0, t, 0);
  pthread_join(h, 0);
  count++;
  return 0;
}
