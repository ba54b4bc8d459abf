// Without `nowait` the loop's barrier orders every write of a before the read. (Two
// iterations: two threads finish them within the default unwinding; with twenty no
// execution within the bounds passes the barrier, and the answer is unknown:
// omp_unfinished_loop_racy.c.)
int a[20];
int main(void) {
  int x = 0;
#pragma omp parallel
  {
#pragma omp for
    for (int i = 0; i < 2; i++)
      a[i] = i;
#pragma omp single
    x = a[1];
  }
  return x;
}
