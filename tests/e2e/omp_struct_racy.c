#include <omp.h>
struct point {
  int x, y;
};
int main(void) {
  struct point p = {0, 0};
#pragma omp parallel
  {
    p.x = p.x + 1;
  }
  return p.x;
}
