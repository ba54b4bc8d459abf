// opendir returns a pointer to a struct the program never completes (DIR): its fresh
// object was sized with sizeof, which CBMC rejected ("incomplete type"): no answer.
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
  count++;
  pthread_join(h, 0);
  return 0;
}
