/* A second unit of the library of counter.c (no main either): `gauge_bump` calls
   counter.c's `counter_add`, so it races with `counter_reset` across the two files. */
void counter_add(int n);

void gauge_bump(void)
{
    counter_add(1);
}
