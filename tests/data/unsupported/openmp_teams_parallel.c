int a[64];
int main(void) {
  int i;
#pragma omp teams num_teams(2)
#pragma omp parallel for
  for (i = 0; i < 64; i++)
    a[i] = i;
  return a[0];
}
