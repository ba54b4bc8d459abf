// Two sections may run on two threads: both write the function's `x`.
int main(void) {
  int x = 0;
#pragma omp parallel sections
  {
#pragma omp section
    x = 1;
#pragma omp section
    x = 2;
  }
  return x;
}
