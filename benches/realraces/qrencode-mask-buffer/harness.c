/* Two threads choose the best mask for their own version-1 QR symbols at once, as two
   threads encoding strings do (QRcode_encodeMask calls Mask_mask for every symbol). */
#include <pthread.h>
#include <stdlib.h>

#include "qrencode.h"
#include "qrspec.h"
#include "mask.h"

static int chosen[2];

static void *mask_worker(void *arg) {
  int id = *(int *)arg;
  int width = QRspec_getWidth(1);
  unsigned char *frame = QRspec_newFrame(1);
  if (frame == NULL)
    return NULL;
  unsigned char *masked = Mask_mask(width, frame, id == 0 ? QR_ECLEVEL_L : QR_ECLEVEL_H);
  chosen[id] = masked != NULL;
  free(masked);
  free(frame);
  return NULL;
}

int main(void) {
  pthread_t t[2];
  int ids[2] = {0, 1};
  for (int i = 0; i < 2; i++)
    pthread_create(&t[i], NULL, mask_worker, &ids[i]);
  for (int i = 0; i < 2; i++)
    pthread_join(t[i], NULL);
  /* Each thread got a masked symbol. */
  return !(chosen[0] && chosen[1]);
}
