int a[64];
int main(void) {
  int i;
#pragma omp parallel
#pragma omp distribute
  for (i = 0; i < 64; i++)
    a[i] = i;
  return a[0];
}
