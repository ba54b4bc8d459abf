//! Snapshot tests of `inline` (followed by `unwind`), inputs in normal form.

mod common;

fn check(src: &str, unwind: u32) -> String {
    common::show(common::bound(src, unwind, 100))
}

#[test]
fn function_called_twice_has_distinct_locals() {
    insta::assert_snapshot!(check(
        r#"
int g;
int inc(int x) { int y; __CPROVER_havoc_object(&y); y = x + 1; return y; }
int main() { int a; a = 1; a = inc(a); g = inc(a); inc(3); return 0; }
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
