int a[2];
int main(void) {
#pragma omp teams num_teams(2)
  a[omp_get_thread_num()] = omp_get_team_num() + 1;
  return a[0] + a[1];
}
