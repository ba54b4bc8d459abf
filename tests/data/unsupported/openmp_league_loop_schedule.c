int a[64];
int main(void) {
  int i;
#pragma omp target teams distribute parallel for schedule(static, 1)
  for (i = 0; i < 64; i++)
    a[i] = i;
  return a[0];
}
