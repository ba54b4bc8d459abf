double a[8];
int main(void) {
  int i;
  for (i = 0; i < 8; i++)
    a[i] = i;
#pragma omp target teams map(tofrom: a[0:8]) num_teams(2)
#pragma omp distribute
  for (i = 0; i < 8; i++)
    a[i] *= 2.0;
  return (int)a[4];
}
