//! Snapshot tests of `unwind` (after `inline`), inputs in normal form, and a semantic test
//! comparing gcc-compiled runs of original and bounded programs.

use crate::common;

fn check(src: &str, unwind: u32) -> String {
    common::show(common::bound(src, unwind, 100))
}

fn check_max(src: &str, unwind: u32, max_unwind: u32) -> String {
    common::show(common::bound(src, unwind, max_unwind))
}

#[test]
fn nested_loops_break_continue() {
    insta::assert_snapshot!(check(
        r#"
int g;
int main() {
  int i; __CPROVER_havoc_object(&i);
  while (g < 10) {
    int j; __CPROVER_havoc_object(&j);
    j = g;
    while (j > 0) {
      if (j == 3) goto brk_in;
      if (j == 5) goto cont_in;
      j = j - 1;
      cont_in: ;
    }
    brk_in: ;
    if (g == 7) goto brk_out;
    g = g + 1;
  }
  brk_out: ;
  return 0;
}
"#,
        2
    ));
}

#[test]
fn constant_bound_unwound_exactly() {
    insta::assert_snapshot!(check(
        r#"
int a[3];
int main() {
  int i; __CPROVER_havoc_object(&i);
  i = 0;
  while (i < 3) { a[i] = i; cont: i++; }
  return 0;
}
"#,
        1
    ));
}

#[test]
fn constant_bound_above_max_unwind_uses_default() {
    // Not innermost: not sampled (`unwind::sample`), copied `--unwind` times and cut.
    insta::assert_snapshot!(check_max(
        r#"
int a[300];
int main() {
  pthread_create(0, 0, 0, 0);
  int i; __CPROVER_havoc_object(&i);
  i = 0;
  while (i < 300) { a[i] = i; while (a[i] > 5) a[i] = 0; i += 1; }
  return 0;
}
"#,
        2,
        100
    ));
}

#[test]
fn an_innermost_loop_copies_would_cut_runs_one_iteration_any() {
    // After a thread exists, 300 iterations beyond `--max-unwind`: one step that runs
    // iteration `k` of any value between havocs of what the loop writes (`unwind::sample`).
    insta::assert_snapshot!(check_max(
        r#"
int a[300];
int main() {
  pthread_create(0, 0, 0, 0);
  int i; __CPROVER_havoc_object(&i);
  i = 0;
  while (i < 300) { a[i] = i; i += 1; }
  return 0;
}
"#,
        2,
        100
    ));
}

/// A nest of constant-bound loops whose iterations together exceed `max_unwind` (20 × 10 >
/// 100): the inner loop stays whole (10 copies of its body), the outer one gets U copies and
/// a certain cut — 20 copies of the innermost statement, not 200.
#[test]
fn nest_of_constant_bounds_beyond_max_unwind_cuts_the_outer_loop() {
    let out = check_max(
        r#"
int a[20][10];
int main() {
  pthread_create(0, 0, 0, 0);
  int i; __CPROVER_havoc_object(&i);
  int j; __CPROVER_havoc_object(&j);
  i = 0;
  while (i < 20) { j = 0; while (j < 10) { a[i][j] = 1; j++; } i++; }
  return 0;
}
"#,
        2,
        100,
    );
    assert_eq!(out.matches("a[i][j] = 1;").count(), 20, "{out}");
    assert_eq!(out.matches("__CPROVER_assume(0);").count(), 1, "{out}");
    assert!(out.contains("// cuts: Loop@"), "{out}");
}

/// The same nest within `max_unwind` (10 × 10): unwound completely, no cut.
#[test]
fn nest_of_constant_bounds_within_max_unwind_is_whole() {
    let out = check_max(
        r#"
int a[10][10];
int main() {
  pthread_create(0, 0, 0, 0);
  int i; __CPROVER_havoc_object(&i);
  int j; __CPROVER_havoc_object(&j);
  i = 0;
  while (i < 10) { j = 0; while (j < 10) { a[i][j] = 1; j++; } i++; }
  return 0;
}
"#,
        2,
        100,
    );
    assert_eq!(out.matches("a[i][j] = 1;").count(), 100, "{out}");
    assert!(!out.contains("Loop@"), "{out}");
}

/// The same loop in `main` before any thread, beyond 10 × `max_unwind` iterations: one
/// step that gives `a` and `i` arbitrary values and leaves the test false (`solo`), no cut.
#[test]
fn long_setup_loop_before_any_thread_is_one_step() {
    let out = check_max(
        r#"
int a[3000];
int main() {
  int i; __CPROVER_havoc_object(&i);
  i = 0;
  while (i < 3000) { a[i] = i; i += 1; }
  return 0;
}
"#,
        2,
        100,
    );
    assert!(out.contains("__CPROVER_havoc_object(a);"), "{out}");
    assert!(out.contains("__CPROVER_assume(!(i < 3000));"), "{out}");
    assert!(!out.contains("a[i] = i"), "{out}");
}

/// A set-up loop that calls nothing, within 10 × `max_unwind` copies: copied whole (no
/// havoc; `i`'s address is taken, so the test after the copies stays assumed, true in every
/// run); the same loop with an allocation in its body keeps U copies and its cut.
#[test]
fn small_setup_loop_before_any_thread_is_copied_whole() {
    let out = check_max(
        r#"
int a[300];
int main() {
  int i; __CPROVER_havoc_object(&i);
  i = 0;
  while (i < 300) { a[i] = i; i += 1; }
  return 0;
}
"#,
        2,
        100,
    );
    assert!(!out.contains("__CPROVER_havoc_object(a);"), "{out}");
    assert_eq!(out.matches("a[i] = i;").count(), 300, "{out}");
    let out = check_max(
        r#"
void *a[300];
int main() {
  int i; __CPROVER_havoc_object(&i);
  i = 0;
  while (i < 300) { a[i] = malloc(4); i += 1; }
  return 0;
}
"#,
        2,
        100,
    );
    assert_eq!(out.matches("a[i] = malloc(4);").count(), 2, "{out}");
}

#[test]
fn counter_written_in_body_is_not_constant() {
    insta::assert_snapshot!(check(
        r#"
int main() {
  int i; __CPROVER_havoc_object(&i);
  i = 0;
  while (i < 3) { if (i == 1) i = 5; i++; }
  return 0;
}
"#,
        2
    ));
}

#[test]
fn uninitialised_locals_havocked_in_each_copy() {
    insta::assert_snapshot!(check(
        r#"
int s;
int main() {
  while (s < 5) { int t; __CPROVER_havoc_object(&t); s = s + t; }
  return 0;
}
"#,
        2
    ));
}

#[test]
fn backward_goto_loop() {
    insta::assert_snapshot!(check(
        r#"
int g;
int main() {
  g = 0;
again:
  g = g + 1;
  if (g < 5) goto again;
  if (g == 9) { goto again; }
  return g;
}
"#,
        2
    ));
}

#[test]
fn loop_in_inlined_function_per_call_site() {
    insta::assert_snapshot!(check(
        r#"
int sum(int n) { int s; int k; s = 0; k = 0; while (k < n) { s = s + k; k++; } return s; }
int main() { int a; a = sum(2); a = sum(a); return a; }
"#,
        2
    ));
}

// ---- semantics: original and bounded program print the same ----

fn same_output(src: &str, unwind: u32) {
    let (bounded, _) = common::bound(src, unwind, 100).unwrap_or_else(|e| panic!("{e}"));
    // printf was declared by the prelude of the test, not the program: strip nothing.
    let a = common::run_c(src, "orig");
    let b = common::run_c(&bounded, "bounded");
    assert_eq!(a, b, "bounded program:\n{bounded}");
    assert!(!b.contains("ASSUME-FAIL"));
}

#[test]
fn semantics_loops_within_bound() {
    same_output(
        r#"
int printf(const char *, ...);
int main() {
  int i; int j; int t; __CPROVER_havoc_object(&i); __CPROVER_havoc_object(&j);
  __CPROVER_havoc_object(&t);
  t = 0; i = 0;
  while (i < 4) {
    j = i;
    while (j > 0) { if (j == 2) goto brk; t = t + j; j = j - 1; cont: ; }
    brk: ;
    i++;
  }
  printf("%d\n", t);
  return 0;
}
"#,
        3,
    );
}

#[test]
fn semantics_recursion_within_bound() {
    same_output(
        r#"
int printf(const char *, ...);
int fact(int n) { int r; if (n <= 1) return 1; r = fact(n - 1); return n * r; }
int fib(int n) { int a; int b; if (n < 2) return n; a = fib(n - 1); b = fib(n - 2); return a + b; }
int main() { int x; x = fact(4); printf("%d\n", x); x = fib(5); printf("%d\n", x); return 0; }
"#,
        5,
    );
}

#[test]
fn semantics_function_pointers_and_statics() {
    same_output(
        r#"
int printf(const char *, ...);
struct ops { int (*cb)(int); };
int twice(int a) { return 2 * a; }
int neg(int a) { return -a; }
int counter(void) { static int n = 10; n = n + 1; return n; }
struct ops o = { neg };
int main() {
  int (*fp)(int); int v; int c;
  fp = twice; v = fp(4); printf("%d\n", v);
  v = o.cb(v); printf("%d\n", v);
  fp = neg; v = (*fp)(v); printf("%d\n", v);
  c = counter(); c = counter(); printf("%d\n", c);
  return 0;
}
"#,
        2,
    );
}

#[test]
fn semantics_backward_goto() {
    same_output(
        r#"
int printf(const char *, ...);
int main() {
  int k; int s; __CPROVER_havoc_object(&k); __CPROVER_havoc_object(&s);
  k = 0; s = 0;
top:
  s = s + k;
  k = k + 1;
  if (k < 3) goto top;
  printf("%d %d\n", k, s);
  return 0;
}
"#,
        3,
    );
}

#[test]
fn loop_filling_a_whole_object_with_arbitrary_values_is_one_step() {
    insta::assert_snapshot!(check(
        r#"
char __VERIFIER_nondet_char(void);
void *malloc(unsigned long);
char *g;
int main() {
  pthread_create(0, 0, 0, 0);
  unsigned long n; n = 4096;
  char *p; p = malloc(n);
  unsigned long i; i = 0;
  while (i < n) { p[i] = __VERIFIER_nondet_char(); ++i; }
  g = p;
  return 0;
}
"#,
        1
    ));
}

#[test]
fn loop_filling_with_a_non_arbitrary_value_is_unwound() {
    let out = check(
        r#"
char *g;
int main() {
  unsigned long n; n = 4096;
  char *p; p = g;
  unsigned long i; i = 0;
  while (i < n) { p[i] = 0; ++i; }
  return 0;
}
"#,
        1,
    );
    assert!(!out.contains("__CPROVER_OBJECT_SIZE"), "{out}");
    assert!(out.contains("__CPROVER_assume"), "{out}");
}

/// `if (!DEBUG) return;` with `DEBUG` a macro: the code behind the constant test is dead and
/// goes, labels only a dead goto targets do not revive it, but a label that a live goto
/// targets inside a branch the test never takes keeps what follows it.
#[test]
fn dead_code_behind_a_constant_test_is_removed() {
    insta::assert_snapshot!(check(
        r#"
int g, h;
int main() {
  if (!(0 >= 30)) goto out;
  g = 1;
  if (g == h) goto dead_target;
  h = 2;
  dead_target: ;
  g = 3;
  out: ;
  if (h) goto inside;
  if (2 > 1 && 0) {
    h = 4;
    inside: ;
    h = 5;
  } else {
    h = 6;
  }
  return 0;
}
"#,
        2
    ));
}

#[test]
fn semantics_constant_tests() {
    same_output(
        r#"
#include <stdio.h>
int g;
int main() {
  if (!(0 >= 30)) goto out;
  g = 1;
  skipped: ;
  g = 3;
  out: ;
  if (g == 0) goto inside;
  if (2 > 1 && 0) {
    g = 4;
    inside: ;
    g = g + 5;
  } else {
    g = 6;
  }
  printf("%d\n", g);
  return 0;
}
"#,
        2,
    );
}

/// A file-scope integer never written nor address-taken and initialised with a constant
/// (`int verbosity = 0;`) is a constant in conditions: the logging behind
/// `if (verbosity >= VERB_ALGO)` is dead, and so is an inlined call's test of its parameter
/// (`log_at(VERB_ALGO)`). Written (`level`), address-taken (`taken`), `_Bool`, typedef'd,
/// out-of-range and shadowed globals, and a `_Bool` local, stay as they are.
#[test]
fn conditions_on_constant_globals_are_folded() {
    insta::assert_snapshot!(check(CONSTANT_GLOBALS, 2));
}

/// The program of `conditions_on_constant_globals_are_folded`: every test it folds and
/// every one it must not; its output under gcc and after `unwind` is the same.
const CONSTANT_GLOBALS: &str = r#"
#include <stdio.h>
enum verbosity_value { NO_VERBOSE, VERB_OPS, VERB_DETAIL, VERB_QUERY, VERB_ALGO };
typedef int level_t;
enum verbosity_value verbosity = NO_VERBOSE;
int level = 0;
int taken = 0;
_Bool flag = 2;
level_t typed = 1;
unsigned char wide = 300;
int shadowed = 0;
int *escape = &taken;
int g;
void bump(void) { level++; }
void log_at(enum verbosity_value at) {
  if (verbosity >= at) g += 256;
}
int main() {
  int shadowed = 3;
  _Bool local_flag;
  local_flag = 2;
  if (local_flag == 2) g += 512;
  log_at(VERB_ALGO);
  log_at(NO_VERBOSE);
  if (verbosity >= VERB_ALGO) g += 1;
  if (verbosity == NO_VERBOSE) g += 2;
  bump();
  if (level) g += 4;
  *escape = 5;
  if (taken) g += 8;
  if (flag == 2) g += 16;
  if (typed) g += 32;
  if (wide == 44) g += 64;
  if (shadowed) g += 128;
  printf("%d\n", g);
  return 0;
}
"#;

#[test]
fn semantics_constant_globals() {
    same_output(CONSTANT_GLOBALS, 2);
}
