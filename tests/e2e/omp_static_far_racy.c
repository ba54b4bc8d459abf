// Iterations 3 and 90 write one element: `schedule(static, 1)` in a team the program
// does not size gives them to two threads.
int a[100];
int main(void) {
#pragma omp parallel for schedule(static, 1)
  for (int i = 0; i < 100; i++)
    a[i == 90 ? 3 : i] = i;
  return 0;
}
