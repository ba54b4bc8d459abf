int a[64];
int main(void) {
  int i;
#pragma omp target teams map(a[0:64])
#pragma omp distribute parallel for
  for (i = 0; i < 64; i++)
    a[i] = i;
  return a[0];
}
