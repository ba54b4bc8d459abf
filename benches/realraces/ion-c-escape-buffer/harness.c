/* Harness of ours for a race that amazon-ion/ion-c fixed in 4a184d2b74 (see ./source);
   it calls the library only through its own functions, as a unit test would. */
/* Two threads escape a control character at once, as two text writers do when they write
   strings holding one (ion_writer_text.c calls this helper for every such character). */
#include <pthread.h>
#include <string.h>

#include "ion_internal.h"

static char escaped[2][8];

static void *escape_worker(void *arg) {
  int id = *(int *)arg;
  /* 0x01 and 0x1f have no short escape: both get the \xHH form. */
  char *image = _ion_writer_get_control_escape_string(id == 0 ? 0x01 : 0x1f);
  /* The caller copies the image out, as the text writer does before the next character. */
  strncpy(escaped[id], image, sizeof escaped[id] - 1);
  return NULL;
}

int main(void) {
  pthread_t t[2];
  int ids[2] = {0, 1};
  for (int i = 0; i < 2; i++)
    pthread_create(&t[i], NULL, escape_worker, &ids[i]);
  for (int i = 0; i < 2; i++)
    pthread_join(t[i], NULL);
  /* Each thread got its own character's escape. */
  return strcmp(escaped[0], "\\x01") != 0 || strcmp(escaped[1], "\\x1F") != 0;
}
