int n;
int main(void) {
#pragma omp teams num_teams(2)
  {
#pragma omp critical
    n++;
  }
  return n;
}
