int x;
int main(void) {
#pragma omp parallel for
  for (int i = 0; i < 100; i++)
    if (i == 40 || i == 41)
      x = i;
  return x;
}
