// Chunk m writes a[2m + 2], which chunk m + 1 reads: two chunks, two threads.
int a[18];
int main(void) {
  int i;
#pragma omp parallel for schedule(dynamic, 2)
  for (i = 0; i < 16; i++)
    a[i - i % 2 + 2] += a[i - i % 2];
  return a[0];
}
