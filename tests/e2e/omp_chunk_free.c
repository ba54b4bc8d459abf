// Iterations 2m and 2m + 1 both update a[2m]: one chunk of `schedule(dynamic, 2)`, which
// one thread runs in order, so no two threads ever update one element.
int a[16];
int main(void) {
  int i;
#pragma omp parallel for schedule(dynamic, 2)
  for (i = 0; i < 16; i++)
    a[i - i % 2] += i;
  return a[0];
}
