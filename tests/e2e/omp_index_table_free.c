// Indirect accesses through a constant index table (prove/table.rs) into one block seen
// from two starts (prove/origin.rs): x1[t[i]] is base[t[i]], x2[t[i]] is base[t[i] + 3];
// no two entries of t are equal or 3 apart, so two iterations never share an element.
#include <stdlib.h>
int t[6] = {0, 1, 2, 8, 9, 10};
int main(void) {
  int i;
  double *base = (double *)malloc(sizeof(double) * 16);
  if (base == 0)
    return 1;
  double *x1 = base;
  double *x2 = base + 3;
#pragma omp parallel for num_threads(2)
  for (i = 0; i < 6; i++) {
    int idx = t[i];
    x1[idx] += 1.0;
    x2[idx] += 3.0;
  }
  free(base);
  return 0;
}
