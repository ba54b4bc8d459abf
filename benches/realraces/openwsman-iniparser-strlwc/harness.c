/* Two threads look keys up in one configuration dictionary at once, as openwsman's
   listener threads read their settings. The dictionary is empty (no entries: n = size = 0),
   so every lookup returns its default; each lookup lowercases its key first. */
#include <pthread.h>
#include <stddef.h>
#include <string.h>

#include "u/iniparser.h"

static dictionary config = {0, 0, NULL, NULL, NULL};
static const char *answer[2];

static void *lookup_worker(void *arg) {
  int id = *(int *)arg;
  char key0[] = "Server:Port";
  char key1[] = "Cim:Namespace";
  answer[id] = iniparser_getstring(&config, id == 0 ? key0 : key1,
                                   id == 0 ? "5985" : "root/cimv2");
  return NULL;
}

int main(void) {
  pthread_t t[2];
  int ids[2] = {0, 1};
  for (int i = 0; i < 2; i++)
    pthread_create(&t[i], NULL, lookup_worker, &ids[i]);
  for (int i = 0; i < 2; i++)
    pthread_join(t[i], NULL);
  /* No key is set: both lookups give their defaults. */
  return strcmp(answer[0], "5985") != 0 || strcmp(answer[1], "root/cimv2") != 0;
}
