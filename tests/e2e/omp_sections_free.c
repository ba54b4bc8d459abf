// Two sections may run on two threads: each writes its own variable.
int main(void) {
  int x = 0, y = 0;
#pragma omp parallel sections
  {
#pragma omp section
    x = 1;
#pragma omp section
    y = 2;
  }
  return x + y;
}
