int x;
int main(void) {
#pragma omp parallel for schedule(static, 2)
  for (int i = 0; i < 100; i++)
    if (i == 40 || i == 43)
      x = i;
  return x;
}
