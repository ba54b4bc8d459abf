// A team is created in each of the 8 rounds of main's loop; in round 1 (the second team)
// every thread writes `x`: a race. Creations beyond --max-threads (the third team on) cut
// the executions that reach them, and the copies of the loop after that cut are dropped.
// Two iterations: a team finishes within --unwind 2 (one claim and the failing one each).
int x;
int a[8][2];
int main(void) {
  int t, j;
  for (t = 0; t < 8; t++) {
#pragma omp parallel for
    for (j = 0; j < 2; j++) {
      a[t][j] = a[t][j] + 1;
      if (t == 1)
        x = j;
    }
  }
  return 0;
}
