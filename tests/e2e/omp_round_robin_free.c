// `num_threads(2) schedule(static, 1)`: iteration i runs on thread i % 2, so each thread
// updates only its own element of `sum` (a claim of any iteration by any thread reported
// a race here that this schedule never has).
int sum[2];
int main(void) {
  int i;
#pragma omp parallel for num_threads(2) schedule(static, 1)
  for (i = 0; i < 4; i++)
    sum[i % 2] += i;
  return sum[0];
}
