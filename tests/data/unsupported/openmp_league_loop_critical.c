int a[16], n;
int main(void) {
  int i;
#pragma omp teams distribute parallel for num_teams(2) num_threads(2)
  for (i = 0; i < 16; i++) {
#pragma omp critical
    n++;
  }
  return n;
}
