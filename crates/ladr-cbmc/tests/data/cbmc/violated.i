int nondet_int(void);
int main(void)
{
  int x = 1;
  x = x + 1;
  __CPROVER_assert(x == 3, "x is three");
  return 0;
}
