// Iterations 0 (thread 0) and 3 (thread 1) both update sum[0].
int sum[3];
int main(void) {
  int i;
#pragma omp parallel for num_threads(2) schedule(static, 1)
  for (i = 0; i < 4; i++)
    sum[i % 3] += i;
  return sum[0];
}
