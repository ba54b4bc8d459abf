//! Snapshot tests of `constprop` (after `inline` and `unwind`), and semantic tests: the
//! program before and after the pass prints the same when compiled with gcc and run.

use crate::common;

fn check(src: &str, unwind: u32) -> String {
    common::show(common::folded(src, unwind))
}

fn same_output(src: &str, unwind: u32) {
    let (bounded, _) = common::bound(src, unwind, 100).unwrap_or_else(|e| panic!("{e}"));
    let (folded, _) = common::folded(src, unwind).unwrap_or_else(|e| panic!("{e}"));
    assert_ne!(bounded, folded, "nothing was folded in:\n{bounded}");
    let a = common::run_c(&bounded, "bounded");
    let b = common::run_c(&folded, "folded");
    assert_eq!(a, b, "folded program:\n{folded}");
    assert!(!b.contains("ASSUME-FAIL"));
}

/// The counter of an unwound loop and the pointer an inlined function is called with
/// become constants: `&cache[i]` is `&cache[3]` for CBMC.
#[test]
fn loop_counter_and_pointer_parameter() {
    insta::assert_snapshot!(check(
        r#"
struct entry { int refs; } cache[3];
void addref(struct entry *e) { e->refs++; }
int main() {
  int i; __CPROVER_havoc_object(&i);
  for (i = 0; i < 3; i++) addref(&cache[i]);
  return cache[1].refs;
}
"#,
        2
    ));
}

/// Not folded: values that differ on two paths, a local whose address is taken, a value
/// out of 0..=127, a `double`, a pointer read from memory, and a read after a label that a
/// `goto` with another value reaches.
#[test]
fn what_is_not_folded() {
    insta::assert_snapshot!(check(
        r#"
int g; int *gp;
int main() {
  int a; int b; int c; double d; int *p; int *q; unsigned u; int k;
  __CPROVER_havoc_object(&a); __CPROVER_havoc_object(&b); __CPROVER_havoc_object(&c);
  __CPROVER_havoc_object(&d); __CPROVER_havoc_object(&p); __CPROVER_havoc_object(&q);
  __CPROVER_havoc_object(&u); __CPROVER_havoc_object(&k);
  if (g) a = 1; else a = 2;
  g = a;
  b = 3; gp = &b; g = b;
  c = 200; g = c;
  d = 3; g = d / 2;
  p = gp; g = *p;
  q = &g; *q = 4;
  u = 0; u = u - 1; g = u / 2;
  k = 1;
  if (g) goto out;
  k = 2;
out:
  g = k;
  return 0;
}
"#,
        2
    ));
}

/// A function pointer returning a pointer (`void *(*f)(void *)`) and one of a typedef
/// (`fn_t`), passed down two calls, are folded into the call through it.
#[test]
fn function_pointer_typedefs() {
    insta::assert_snapshot!(check(
        r#"
typedef void *(*fn_t)(void *);
void *work(void *a) { return a; }
void *r;
static void call(fn_t f) { r = f(0); }
static void pass(fn_t g) { call(g); }
int main() {
  void *(*h)(void *) = work;
  pass(h);
  return 0;
}
"#,
        2
    ));
}

/// A local declared in two blocks one after the other is folded in each, and so is a local
/// that shadows another: `inline` renamed a function's locals of one name apart.
#[test]
fn scopes() {
    insta::assert_snapshot!(check(
        r#"
int g;
int main() {
  { int i; __CPROVER_havoc_object(&i); i = 1; g = i; }
  int i; __CPROVER_havoc_object(&i); i = 2; g = i;
  int j; __CPROVER_havoc_object(&j); j = 3;
  { int j; __CPROVER_havoc_object(&j); j = 4; g = j; }
  g = j;
  return 0;
}
"#,
        2
    ));
}

#[test]
fn semantics_loops_gotos_and_scopes() {
    same_output(
        r#"
int printf(const char *, ...);
struct entry { int refs; int v[2]; } cache[4];
void addref(struct entry *e, int k) { e->refs += k; e->v[k % 2]++; }
int main() {
  int i; int s; int k; unsigned char c; int *p;
  __CPROVER_havoc_object(&i); __CPROVER_havoc_object(&s); __CPROVER_havoc_object(&k);
  __CPROVER_havoc_object(&c); __CPROVER_havoc_object(&p);
  s = 0;
  for (i = 0; i < 4; i++) addref(&cache[i], i);
  for (i = 0; i < 4; i++) s += cache[i].refs * 10 + cache[i].v[1];
  c = 120; c += 7; s += c;
  k = 1;
  if (s > 5) goto skip;
  k = 5;
skip:
  s += k;
  { int j; __CPROVER_havoc_object(&j); j = 6; s += j; }
  p = &cache[2].refs; *p = 9; s += cache[2].refs;
  printf("%d\n", s);
  return 0;
}
"#,
        2,
    );
}
