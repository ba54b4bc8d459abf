// Iteration i reads a[i + 10] and writes b[i]: no two iterations touch one element.
int a[30], b[20];
int main(void) {
  int i;
#pragma omp parallel for
  for (i = 0; i < 20; i++)
    b[i] = a[i + 10] + 1;
  return 0;
}
