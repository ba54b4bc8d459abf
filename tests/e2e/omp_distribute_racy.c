double a[8];
int main(void) {
  int i;
  a[7] = 1.0;
#pragma omp target teams distribute map(tofrom: a[0:8]) num_teams(2)
  for (i = 0; i < 7; i++)
    a[i] = a[i + 1] * 2.0;
  return (int)a[4];
}
