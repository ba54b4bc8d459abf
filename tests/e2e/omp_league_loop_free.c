double a[8], sum;
int main(void) {
  int i;
#pragma omp target teams distribute parallel for map(tofrom: a[0:8], sum) num_teams(2) num_threads(2) reduction(+: sum)
  for (i = 0; i < 8; i++) {
    a[i] = a[i] * 2.0;
    sum += a[i];
  }
  return (int)sum;
}
