int nondet_int(void);
int main(void)
{
  int x = nondet_int();
  __CPROVER_assume(x > 0 && x < 100);
  int y = x * x;
  __CPROVER_assert(y != 49 * 49 + 1, "no square is 2402");
  return 0;
}
