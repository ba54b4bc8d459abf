// A team is created in each of the 8 rounds of main's loop; each iteration touches its own
// element of row t, and round 1's write of `x` is in a critical section: no race.
int x;
int a[8][2];
int main(void) {
  int t, j;
  for (t = 0; t < 8; t++) {
#pragma omp parallel for
    for (j = 0; j < 2; j++) {
      a[t][j] = a[t][j] + 1;
      if (t == 1) {
#pragma omp critical
        x = j;
      }
    }
  }
  return 0;
}
