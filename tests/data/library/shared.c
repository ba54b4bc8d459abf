/* Library mode's --share-args: `bump` writes through its argument without a lock. Two
   threads with objects of their own do not race; given the same object they do. */
void bump(int *n)
{
    *n = *n + 1;
}
