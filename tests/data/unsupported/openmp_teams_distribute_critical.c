int a[16], n;
int main(void) {
  int i;
#pragma omp teams distribute num_teams(2)
  for (i = 0; i < 16; i++) {
#pragma omp critical
    n++;
  }
  return n;
}
