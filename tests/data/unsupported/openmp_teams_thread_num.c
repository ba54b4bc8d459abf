int a[4];
int me(void) { return omp_get_thread_num(); }
int main(void) {
#pragma omp target map(a[0:4])
#pragma omp teams num_teams(2)
  a[me()] = 1;
  return a[0];
}
