double a[16], sum;
int main(void) {
  int i;
#pragma omp target teams distribute parallel for map(tofrom: a[0:16]) num_teams(2) num_threads(2)
  for (i = 0; i < 15; i++)
    a[i] = a[i + 1] + 1.0;
  return (int)a[0];
}
