double a[8];
int main(void) {
  int i;
  for (i = 0; i < 8; i++)
    a[i] = i;
#pragma omp target map(tofrom: a[0:8])
#pragma omp teams num_teams(2)
  {
    a[4] *= 2.0;
  }
  return (int)a[4];
}
