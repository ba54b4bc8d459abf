int a[2];
int main(void) {
#pragma omp teams num_teams(2)
  a[omp_get_team_num()] = omp_get_num_teams() * omp_get_num_threads();
  return a[0] + a[1] + omp_get_team_num();
}
