/* C library string functions (`model/library.rs`, `library::has_model`). CBMC's own
   models loop until the terminator; when the pointer may point to more than one object (a
   thread's argument, a heap buffer) symbolic execution cannot bound that loop and never
   ends. These look at the first 16 characters: exact for shorter strings, and beyond them
   they return any value and leave any contents (an over-approximation: no execution is
   lost, so a race is never missed because of them). Their own accesses are not
   instrumented; `race` instruments the call as the library function it stands for. */
unsigned long __VERIFIER_nondet_ulong(void);
int __VERIFIER_nondet_int(void);
long __VERIFIER_nondet_long(void);

unsigned long __ladr_strlen(const char *s)
{
  for (unsigned long i = 0; i < 16; i++)
    if (s[i] == 0)
      return i;
  unsigned long n = __VERIFIER_nondet_ulong();
  __CPROVER_assume(n >= 16);
  return n;
}

int __ladr_strncmp(const char *a, const char *b, unsigned long n)
{
  for (unsigned long i = 0; i < 16; i++) {
    if (i >= n)
      return 0;
    if (a[i] != b[i])
      return (unsigned char)a[i] < (unsigned char)b[i] ? -1 : 1;
    if (a[i] == 0)
      return 0;
  }
  return __VERIFIER_nondet_int();
}

int __ladr_strcmp(const char *a, const char *b)
{
  return __ladr_strncmp(a, b, 16 + 1);
}

int __ladr_strcasecmp(const char *a, const char *b)
{
  return __VERIFIER_nondet_int();
}

int __ladr_strncasecmp(const char *a, const char *b, unsigned long n)
{
  return __VERIFIER_nondet_int();
}

/* The bytes from d to the end of its object may hold anything. */
void __ladr_havoc_rest(char *d)
{
  __CPROVER_havoc_slice(d, __CPROVER_OBJECT_SIZE(d) - __CPROVER_POINTER_OFFSET(d));
}

char *__ladr_strcpy(char *d, const char *s)
{
  for (unsigned long i = 0; i < 16; i++) {
    d[i] = s[i];
    if (s[i] == 0)
      return d;
  }
  __ladr_havoc_rest(d + 16);
  return d;
}

char *__ladr_stpcpy(char *d, const char *s)
{
  unsigned long n = __ladr_strlen(s);
  __ladr_strcpy(d, s);
  return d + n;
}

char *__ladr_strncpy(char *d, const char *s, unsigned long n)
{
  int end = 0;
  for (unsigned long i = 0; i < 16; i++) {
    if (i >= n)
      return d;
    if (!end && s[i] == 0)
      end = 1;
    d[i] = end ? 0 : s[i];
  }
  if (n > 16)
    __CPROVER_havoc_slice(d + 16, n - 16);
  return d;
}

char *__ladr_strcat(char *d, const char *s)
{
  __ladr_strcpy(d + __ladr_strlen(d), s);
  return d;
}

char *__ladr_strncat(char *d, const char *s, unsigned long n)
{
  __ladr_havoc_rest(d + __ladr_strlen(d));
  return d;
}

char *__ladr_strchr(const char *s, int c)
{
  for (unsigned long i = 0; i < 16; i++) {
    if (s[i] == (char)c)
      return (char *)s + i;
    if (s[i] == 0)
      return 0;
  }
  unsigned long k = __VERIFIER_nondet_ulong();
  __CPROVER_assume(k >= 16);
  return __VERIFIER_nondet_int() ? 0 : (char *)s + k;
}

char *__ladr_strrchr(const char *s, int c)
{
  unsigned long n = __ladr_strlen(s);
  if (__VERIFIER_nondet_int())
    return 0;
  unsigned long k = __VERIFIER_nondet_ulong();
  __CPROVER_assume(k <= n);
  __CPROVER_assume(s[k] == (char)c);
  return (char *)s + k;
}

int __ladr_atoi(const char *s)
{
  return __VERIFIER_nondet_int();
}

long __ladr_atol(const char *s)
{
  return __VERIFIER_nondet_long();
}

long __ladr_atoll(const char *s)
{
  return __VERIFIER_nondet_long();
}

/* The end pointer is somewhere in the string. */
long __ladr_strtol(const char *s, char **end, int base)
{
  if (end) {
    unsigned long k = __VERIFIER_nondet_ulong();
    __CPROVER_assume(k <= __ladr_strlen(s));
    *end = (char *)s + k;
  }
  return __VERIFIER_nondet_long();
}

unsigned long __ladr_strtoul(const char *s, char **end, int base)
{
  return (unsigned long)__ladr_strtol(s, end, base);
}

long __ladr_strtoll(const char *s, char **end, int base)
{
  return __ladr_strtol(s, end, base);
}

unsigned long __ladr_strtoull(const char *s, char **end, int base)
{
  return (unsigned long)__ladr_strtol(s, end, base);
}

/* Formatted output into a buffer: its first n bytes (sprintf: the rest of the object) hold
   any characters, the result is any count. */
int __ladr_snprintf(char *d, unsigned long n, const char *format, ...)
{
  unsigned long room = __CPROVER_OBJECT_SIZE(d) - __CPROVER_POINTER_OFFSET(d);
  if (n > room)
    n = room;
  if (n > 0) {
    __CPROVER_havoc_slice(d, n);
    d[n - 1] = 0;
  }
  return __VERIFIER_nondet_int();
}

int __ladr_vsnprintf(char *d, unsigned long n, const char *format, __builtin_va_list ap)
{
  return __ladr_snprintf(d, n, format);
}

int __ladr_sprintf(char *d, const char *format, ...)
{
  __ladr_havoc_rest(d);
  return __VERIFIER_nondet_int();
}

int __ladr_vsprintf(char *d, const char *format, __builtin_va_list ap)
{
  __ladr_havoc_rest(d);
  return __VERIFIER_nondet_int();
}
