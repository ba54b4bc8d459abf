/* C library string functions (`model/library.rs`, `library::has_model`). CBMC's own
   models loop until the terminator; when the pointer may point to more than one object (a
   thread's argument, a heap buffer) symbolic execution cannot bound that loop and never
   ends. These look at the first 16 characters: exact for shorter strings, and beyond them
   they return any value and leave any contents (an over-approximation: no execution is
   lost, so a race is never missed because of them). Their own accesses are not
   instrumented; `race` instruments the call as the library function it stands for. Their
   parameters and locals have reserved names: ladr's analysis reads names file-wide, and a
   parameter `a` would hide the user's global array `a`. */
unsigned long __VERIFIER_nondet_ulong(void);
int __VERIFIER_nondet_int(void);
long __VERIFIER_nondet_long(void);

unsigned long __ladr_strlen(const char *__ladr_s)
{
  for (unsigned long __ladr_i = 0; __ladr_i < 16; __ladr_i++)
    if (__ladr_s[__ladr_i] == 0)
      return __ladr_i;
  unsigned long __ladr_n = __VERIFIER_nondet_ulong();
  __CPROVER_assume(__ladr_n >= 16);
  return __ladr_n;
}

int __ladr_strncmp(const char *__ladr_a, const char *__ladr_b, unsigned long __ladr_n)
{
  for (unsigned long __ladr_i = 0; __ladr_i < 16; __ladr_i++) {
    if (__ladr_i >= __ladr_n)
      return 0;
    if (__ladr_a[__ladr_i] != __ladr_b[__ladr_i])
      return (unsigned char)__ladr_a[__ladr_i] < (unsigned char)__ladr_b[__ladr_i] ? -1 : 1;
    if (__ladr_a[__ladr_i] == 0)
      return 0;
  }
  return __VERIFIER_nondet_int();
}

/* memcmp: CBMC's model loops n times, without bound where symbolic execution cannot pin n
   down (a length read through a pointer that may point to several objects: thmap's key
   comparison). The first 16 bytes are compared exactly; past them, any result. */
int __ladr_memcmp(const void *__ladr_a, const void *__ladr_b, unsigned long __ladr_n)
{
  const unsigned char *__ladr_x = (const unsigned char *)__ladr_a;
  const unsigned char *__ladr_y = (const unsigned char *)__ladr_b;
  for (unsigned long __ladr_i = 0; __ladr_i < 16; __ladr_i++) {
    if (__ladr_i >= __ladr_n)
      return 0;
    if (__ladr_x[__ladr_i] != __ladr_y[__ladr_i])
      return __ladr_x[__ladr_i] < __ladr_y[__ladr_i] ? -1 : 1;
  }
  return __VERIFIER_nondet_int();
}

int __ladr_strcmp(const char *__ladr_a, const char *__ladr_b)
{
  return __ladr_strncmp(__ladr_a, __ladr_b, 16 + 1);
}

int __ladr_strcasecmp(const char *__ladr_a, const char *__ladr_b)
{
  return __VERIFIER_nondet_int();
}

int __ladr_strncasecmp(const char *__ladr_a, const char *__ladr_b, unsigned long __ladr_n)
{
  return __VERIFIER_nondet_int();
}

/* The bytes from d to the end of its object may hold anything. */
void __ladr_havoc_rest(char *__ladr_d)
{
  __CPROVER_havoc_slice(__ladr_d, __CPROVER_OBJECT_SIZE(__ladr_d) - __CPROVER_POINTER_OFFSET(__ladr_d));
}

char *__ladr_strcpy(char *__ladr_d, const char *__ladr_s)
{
  for (unsigned long __ladr_i = 0; __ladr_i < 16; __ladr_i++) {
    __ladr_d[__ladr_i] = __ladr_s[__ladr_i];
    if (__ladr_s[__ladr_i] == 0)
      return __ladr_d;
  }
  __ladr_havoc_rest(__ladr_d + 16);
  return __ladr_d;
}

char *__ladr_stpcpy(char *__ladr_d, const char *__ladr_s)
{
  unsigned long __ladr_n = __ladr_strlen(__ladr_s);
  __ladr_strcpy(__ladr_d, __ladr_s);
  return __ladr_d + __ladr_n;
}

char *__ladr_strncpy(char *__ladr_d, const char *__ladr_s, unsigned long __ladr_n)
{
  int __ladr_endp = 0;
  for (unsigned long __ladr_i = 0; __ladr_i < 16; __ladr_i++) {
    if (__ladr_i >= __ladr_n)
      return __ladr_d;
    if (!__ladr_endp && __ladr_s[__ladr_i] == 0)
      __ladr_endp = 1;
    __ladr_d[__ladr_i] = __ladr_endp ? 0 : __ladr_s[__ladr_i];
  }
  if (__ladr_n > 16)
    __CPROVER_havoc_slice(__ladr_d + 16, __ladr_n - 16);
  return __ladr_d;
}

char *__ladr_strcat(char *__ladr_d, const char *__ladr_s)
{
  __ladr_strcpy(__ladr_d + __ladr_strlen(__ladr_d), __ladr_s);
  return __ladr_d;
}

char *__ladr_strncat(char *__ladr_d, const char *__ladr_s, unsigned long __ladr_n)
{
  __ladr_havoc_rest(__ladr_d + __ladr_strlen(__ladr_d));
  return __ladr_d;
}

char *__ladr_strchr(const char *__ladr_s, int __ladr_c)
{
  for (unsigned long __ladr_i = 0; __ladr_i < 16; __ladr_i++) {
    if (__ladr_s[__ladr_i] == (char)__ladr_c)
      return (char *)__ladr_s + __ladr_i;
    if (__ladr_s[__ladr_i] == 0)
      return 0;
  }
  unsigned long __ladr_k = __VERIFIER_nondet_ulong();
  __CPROVER_assume(__ladr_k >= 16);
  return __VERIFIER_nondet_int() ? 0 : (char *)__ladr_s + __ladr_k;
}

char *__ladr_strrchr(const char *__ladr_s, int __ladr_c)
{
  unsigned long __ladr_n = __ladr_strlen(__ladr_s);
  if (__VERIFIER_nondet_int())
    return 0;
  unsigned long __ladr_k = __VERIFIER_nondet_ulong();
  __CPROVER_assume(__ladr_k <= __ladr_n);
  __CPROVER_assume(__ladr_s[__ladr_k] == (char)__ladr_c);
  return (char *)__ladr_s + __ladr_k;
}

int __ladr_atoi(const char *__ladr_s)
{
  return __VERIFIER_nondet_int();
}

long __ladr_atol(const char *__ladr_s)
{
  return __VERIFIER_nondet_long();
}

long __ladr_atoll(const char *__ladr_s)
{
  return __VERIFIER_nondet_long();
}

/* The end pointer is somewhere in the string. */
long __ladr_strtol(const char *__ladr_s, char **__ladr_endp, int __ladr_base)
{
  if (__ladr_endp) {
    unsigned long __ladr_k = __VERIFIER_nondet_ulong();
    __CPROVER_assume(__ladr_k <= __ladr_strlen(__ladr_s));
    *__ladr_endp = (char *)__ladr_s + __ladr_k;
  }
  return __VERIFIER_nondet_long();
}

unsigned long __ladr_strtoul(const char *__ladr_s, char **__ladr_endp, int __ladr_base)
{
  return (unsigned long)__ladr_strtol(__ladr_s, __ladr_endp, __ladr_base);
}

long __ladr_strtoll(const char *__ladr_s, char **__ladr_endp, int __ladr_base)
{
  return __ladr_strtol(__ladr_s, __ladr_endp, __ladr_base);
}

unsigned long __ladr_strtoull(const char *__ladr_s, char **__ladr_endp, int __ladr_base)
{
  return (unsigned long)__ladr_strtol(__ladr_s, __ladr_endp, __ladr_base);
}

/* Formatted output into a buffer: its first n bytes (sprintf: the rest of the object) hold
   any characters, the result is any count. */
int __ladr_snprintf(char *__ladr_d, unsigned long __ladr_n, const char *__ladr_format, ...)
{
  unsigned long __ladr_room = __CPROVER_OBJECT_SIZE(__ladr_d) - __CPROVER_POINTER_OFFSET(__ladr_d);
  if (__ladr_n > __ladr_room)
    __ladr_n = __ladr_room;
  if (__ladr_n > 0) {
    __CPROVER_havoc_slice(__ladr_d, __ladr_n);
    __ladr_d[__ladr_n - 1] = 0;
  }
  return __VERIFIER_nondet_int();
}

int __ladr_vsnprintf(char *__ladr_d, unsigned long __ladr_n, const char *__ladr_format, __builtin_va_list __ladr_ap)
{
  return __ladr_snprintf(__ladr_d, __ladr_n, __ladr_format);
}

int __ladr_sprintf(char *__ladr_d, const char *__ladr_format, ...)
{
  __ladr_havoc_rest(__ladr_d);
  return __VERIFIER_nondet_int();
}

int __ladr_vsprintf(char *__ladr_d, const char *__ladr_format, __builtin_va_list __ladr_ap)
{
  __ladr_havoc_rest(__ladr_d);
  return __VERIFIER_nondet_int();
}

/* A copy of a string (`strdup`; `strndup`: of at most n characters) in a fresh object of
   128 bytes, like `__ladr_malloc`'s: CBMC's own models allocate an object of the string's
   symbolic length (which CBMC 6.6 crashes on) after looping to the terminator. The first
   16 characters are copied, later ones may be anything up to the terminator at the
   length; a copy longer than 127 characters is not explored (a "heap-size" cut, stated
   where the call is). */
char *__ladr_strndup(const char *__ladr_s, unsigned long __ladr_n)
{
  unsigned long __ladr_len = __ladr_strlen(__ladr_s);
  if (__ladr_len > __ladr_n)
    __ladr_len = __ladr_n;
  __CPROVER_assume(__ladr_len < 128);
  char *__ladr_d = (char *)__CPROVER_allocate(128, 0);
  for (unsigned long __ladr_i = 0; __ladr_i < 16 && __ladr_i < __ladr_len; __ladr_i++)
    __ladr_d[__ladr_i] = __ladr_s[__ladr_i];
  __ladr_d[__ladr_len] = 0;
  return __ladr_d;
}

char *__ladr_strdup(const char *__ladr_s)
{
  return __ladr_strndup(__ladr_s, (unsigned long)-1);
}
