// Every iteration writes its own element (iteration 90 the spare one).
int a[101];
int main(void) {
#pragma omp parallel for schedule(static, 1)
  for (int i = 0; i < 100; i++)
    a[i == 90 ? 100 : i] = i;
  return 0;
}
