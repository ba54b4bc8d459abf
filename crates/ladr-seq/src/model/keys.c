/* Key destructors (issue 16), added to programs that create a key with one. Each key
 * remembers its destructor's number (1, 2, ... in the order `threads` lists the destructor
 * functions; 0 for none). At a thread's exit, `threads` calls __ladr_pthread_key_take(d, slot) and,
 * when it returns a value, runs destructor d on it: the value of the next key (in creation
 * order) with destructor d whose value in that thread is not NULL, set to NULL first, as
 * POSIX orders it. One pass: a destructor that sets a key's value again is refused. */
unsigned int __ladr_key_dtor[16];

unsigned int __ladr_pthread_key_create_dtor(unsigned int dtor)
{
  unsigned int key = __ladr_pthread_key_create();
  __ladr_key_dtor[key] = dtor;
  return key;
}

void *__ladr_pthread_key_take(unsigned int dtor, unsigned int slot)
{
  for (unsigned int key = 0; key < 16; key++)
    if (key < __ladr_nkeys && __ladr_key_dtor[key] == dtor && __ladr_specific[slot][key] != 0) {
      void *v = __ladr_specific[slot][key];
      __ladr_specific[slot][key] = 0;
      return v;
    }
  return 0;
}
