/* Two threads each build and free their own string array, as two nodes listing topic names
   at once do: a zero-initialised array first, then init with the default allocator. */
#include <pthread.h>
#include <stddef.h>

#include "rcutils/allocator.h"
#include "rcutils/types/string_array.h"

static rcutils_ret_t result[2];

static void *array_worker(void *arg) {
  int id = *(int *)arg;
  rcutils_allocator_t allocator = rcutils_get_default_allocator();
  rcutils_string_array_t names = rcutils_get_zero_initialized_string_array();
  result[id] = rcutils_string_array_init(&names, 2, &allocator);
  if (result[id] == RCUTILS_RET_OK)
    result[id] = rcutils_string_array_fini(&names);
  return NULL;
}

int main(void) {
  pthread_t t[2];
  int ids[2] = {0, 1};
  for (int i = 0; i < 2; i++)
    pthread_create(&t[i], NULL, array_worker, &ids[i]);
  for (int i = 0; i < 2; i++)
    pthread_join(t[i], NULL);
  /* Both arrays were made and freed. */
  return result[0] != RCUTILS_RET_OK || result[1] != RCUTILS_RET_OK;
}
