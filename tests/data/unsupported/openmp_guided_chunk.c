int a[16];
int main(void) {
  int i;
#pragma omp parallel for schedule(guided, 4)
  for (i = 0; i < 16; i++)
    a[i - i % 4] += i;
  return a[0];
}
