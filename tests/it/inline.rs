//! Snapshot tests of `inline` (followed by `unwind`), inputs in normal form.

use crate::common;

fn check(src: &str, unwind: u32) -> String {
    common::show(common::bound(src, unwind, 100))
}

#[test]
fn function_called_twice_has_distinct_locals() {
    insta::assert_snapshot!(check(
        r#"
int g;
int inc(int x) { int y; __CPROVER_havoc_object(&y); y = x + g; return y; }
int main() { int a; a = 1; a = inc(a); g = inc(a); inc(3); return 0; }
"#,
        2
    ));
}

/// A function in which no context switch can happen (no shared access, no model call, no
/// assumption; no loop or recursion) stays a call, as do the functions it calls; one that
/// reads a global, loops or recurses is inlined (and unwound, cut).
#[test]
fn function_without_visible_statement_is_kept_as_a_call() {
    insta::assert_snapshot!(check(
        r#"
int g;
int clamp(int v, int lo, int hi) { if (v < lo) return lo; if (v > hi) return hi; return v; }
int scale(int v) { int r; r = clamp(v, 0, 10); return 2 * r; }
int shared(int v) { int r; r = scale(v); return r + g; }
int sum(int n) { int s; s = 0; while (n > 0) { s = s + n; n = n - 1; } return s; }
int depth(int n) { int r; if (n <= 0) return 0; r = depth(n - 1); return r + 1; }
int main() { int a; a = scale(3); a = shared(a); a = sum(a); a = depth(a); g = a; return 0; }
"#,
        2
    ));
}

/// A call through a pointer reaches only functions of a compatible type whose address the
/// program may store: not `probe` (a pointer to another struct), not `count` (a pointer
/// result where a number is expected), not the start routine `worker`, which is only named
/// in `pthread_create`.
#[test]
fn pointer_call_reaches_compatible_functions_only() {
    insta::assert_snapshot!(check(
        r#"
typedef int pthread_t;
int pthread_create(pthread_t *t, void *attr, void *(*f)(void *), void *arg);
struct desc { int v; };
struct dev { int w; };
struct ops { int (*submit)(struct desc *); };
int g;
int submit(struct desc *d) { return d->v; }
int submit_any(void *d) { g = 1; return g; }
int probe(struct dev *d) { return d->w; }
int *count(struct desc *d) { return &d->v; }
void *worker(void *arg) { g = 2; return 0; }
struct ops o;
int main() {
  pthread_t t; struct desc d; int r; int (*pp)(struct dev *); int *(*cp)(struct desc *);
  o.submit = submit; o.submit = (int (*)(struct desc *))submit_any;
  pp = probe; cp = count;
  pthread_create(&t, 0, worker, 0);
  r = o.submit(&d);
  return r;
}
"#,
        2
    ));
}

#[test]
fn factorial_cut_at_depth() {
    insta::assert_snapshot!(check(
        r#"
int fact(int n) { int r; if (n <= 1) return 1; r = fact(n - 1); return n * r; }
int main() { int x; x = fact(5); return x; }
"#,
        2
    ));
}

#[test]
fn mutual_recursion() {
    insta::assert_snapshot!(check(
        r#"
int odd(int n);
int even(int n) { int r; if (n == 0) return 1; r = odd(n - 1); return r; }
int odd(int n) { int r; if (n == 0) return 0; r = even(n - 1); return r; }
int main() { int x; x = even(3); return x; }
"#,
        2
    ));
}

#[test]
fn function_pointer_two_candidates() {
    insta::assert_snapshot!(check(
        r#"
struct ops { int (*cb)(int); };
int twice(int a) { return 2 * a; }
int neg(int a) { return -a; }
int three(int a, int b) { return a; }
struct ops o = { neg };
int main() { int (*fp)(int); int v; fp = twice; v = fp(4); v = (*fp)(v); v = o.cb(v); return v; }
"#,
        2
    ));
}

#[test]
fn static_local_is_one_object() {
    insta::assert_snapshot!(check(
        r#"
int counter(void) { static int n = 0; n = n + 1; return n; }
int main() { int a; a = counter(); a = counter(); return a; }
"#,
        2
    ));
}

#[test]
fn verifier_atomic_wrapped() {
    insta::assert_snapshot!(check(
        r#"
int x;
void helper(void) { x = x + 1; }
void __VERIFIER_atomic_inc(void) { helper(); x = x + 1; }
void *t(void *arg) { __VERIFIER_atomic_inc(); return 0; }
int main() { __VERIFIER_atomic_inc(); return 0; }
"#,
        2
    ));
}

/// Arguments are evaluated before the section and the result is stored after it; a C11
/// `atomic_*` operation is atomic too, and its own section inside another is dissolved.
#[test]
fn atomic_call_result_outside_section() {
    insta::assert_snapshot!(check(
        r#"
int x, y;
void __VERIFIER_atomic_begin(void);
void __VERIFIER_atomic_end(void);
int atomic_fetch_add(int *p, int v) { __VERIFIER_atomic_begin(); int o = *p; *p = o + v; __VERIFIER_atomic_end(); return o; }
int __VERIFIER_atomic_get(int *p) { atomic_fetch_add(p, 0); return *p; }
int main() { y = __VERIFIER_atomic_get(&x); y = atomic_fetch_add(&x, y); return 0; }
"#,
        2
    ));
}

#[test]
fn array_and_function_parameters_become_pointers() {
    insta::assert_snapshot!(check(
        r#"
int apply(int f(int), int a[], const int n) { int r; r = f(a[n]); return r; }
int id(int v) { return v; }
int *first(int *p) { return p; }
int main() { int arr[3]; int r; int *q; arr[0] = 1; r = apply(id, arr, 0); q = first(arr); return r; }
"#,
        2
    ));
}

#[test]
fn bodiless_and_builtins_left() {
    insta::assert_snapshot!(check(
        r#"
extern int ext(int);
int main() { int a; a = ext(1); a = __VERIFIER_nondet_int(); __CPROVER_assume(a > 0); return a; }
"#,
        2
    ));
}

#[test]
fn calling_main_is_an_error() {
    insta::assert_snapshot!(check(
        "int f(void) { main(); return 0; } int main() { f(); return 0; }",
        2
    ));
}

#[test]
fn pointer_call_without_candidate_is_an_external_call() {
    insta::assert_snapshot!(check(
        "int main() { int (*fp)(void); int v; fp = 0; v = fp(); return v; }",
        2
    ));
}

#[test]
fn pointer_call_skips_functions_only_unreachable_code_takes() {
    // `heavy` has its address taken only in `never_called`, which nothing reaches: no
    // pointer can hold it, so the call through `h.run` reaches `light` alone. `later`
    // is taken in a function that `main` calls, and `init` in a file-scope initializer.
    insta::assert_snapshot!(check(
        r#"
struct hook { void (*run)(); };
int x;
void light() { x = 1; }
void heavy() { x = 2; }
void later() { x = 3; }
void init() { x = 4; }
void (*table[1])() = { init };
struct hook h;
void never_called(void) { h.run = heavy; }
void setup(void) { h.run = later; }
int main() { h.run = light; setup(); h.run(); return 0; }
"#,
        2
    ));
}
