//! The proof's conditional locking (`prove/guard.rs`): a lock taken under a test of a
//! local and an access under the same test (after shifts of the local) hold the lock.
//! Racy programs built to fool it are never proved; the idiom is.

use crate::prove::{assert_none_proved, proof_of_source};

/// A nondeterministic value and a thread writing `x` under `m`.
const PRELUDE: &str = r#"extern int nondet(void);
void *w(void *arg) { pthread_mutex_lock(&m); x++; pthread_mutex_unlock(&m); return 0; }
"#;

/// `main` starts `w`, then runs `BODY` beside it.
fn with_main(body: &str) -> String {
    format!("int main(void) {{ pthread_t t; pthread_create(&t, 0, w, 0); {body} pthread_join(t, 0); return 0; }}")
}

/// Racy `main` bodies (after `w` started): `main` may write `x` without `m`.
const RACY_GUARD: &[(&str, &str)] = &[
    // shifted, then tested at the old value: i = 0 locks nothing, i++ makes the test true
    (
        "shift-mismatch",
        "int i = nondet(); if (i) pthread_mutex_lock(&m); i++; if (i) x++; i--; if (i) pthread_mutex_unlock(&m);",
    ),
    // the opposite test
    (
        "negated",
        "int i = nondet(); if (i) pthread_mutex_lock(&m); if (!i) x++; if (i) pthread_mutex_unlock(&m);",
    ),
    // an equality locks, an equality with another constant accesses
    (
        "other-constant",
        "int i = nondet(); if (i == 3) pthread_mutex_lock(&m); if (i == 4) x++; if (i == 3) pthread_mutex_unlock(&m);",
    ),
    // an equality locks, the access under the inequality of the same constant
    (
        "eq-then-ne",
        "int i = nondet(); if (i == 3) pthread_mutex_lock(&m); if (i != 3) x++; if (i == 3) pthread_mutex_unlock(&m);",
    ),
    // unlocked under the same test before the access
    (
        "unlocked-between",
        "int i = nondet(); if (i) pthread_mutex_lock(&m); if (i) pthread_mutex_unlock(&m); if (i) x++;",
    ),
    // unlocked under another test
    (
        "unlocked-other",
        "int i = nondet(); int j = nondet(); if (i) pthread_mutex_lock(&m); if (j) pthread_mutex_unlock(&m); if (i) x++; if (i && !j) pthread_mutex_unlock(&m);",
    ),
    // the local written between the tests
    (
        "written",
        "int i = nondet(); if (i) pthread_mutex_lock(&m); i = nondet(); if (i) x++;",
    ),
    // written in one branch only
    (
        "written-in-branch",
        "int i = nondet(); if (i) pthread_mutex_lock(&m); if (nondet()) i = 5; if (i) x++;",
    ),
    // another local tested
    (
        "other-local",
        "int i = nondet(); int j = nondet(); if (i) pthread_mutex_lock(&m); if (j) x++;",
    ),
    // shifted in a loop
    (
        "loop-shift",
        "int i = nondet(); if (i) pthread_mutex_lock(&m); while (nondet()) i++; if (i) x++;",
    ),
    // a goto back over a write of the local
    (
        "goto-back",
        "int i = nondet(); if (i) pthread_mutex_lock(&m); again: if (i) x++; i = nondet(); if (nondet()) goto again;",
    ),
    // a trylock's failure taken for its success
    (
        "trylock-failed",
        "int r = pthread_mutex_trylock(&m); if (r != 0) x++; if (r == 0) pthread_mutex_unlock(&m);",
    ),
    // a trylock of another mutex
    (
        "trylock-other",
        "pthread_mutex_t m3; pthread_mutex_init(&m3, 0); int r = pthread_mutex_trylock(&m3); if (r == 0) { x++; pthread_mutex_unlock(&m3); }",
    ),
    // a trylock's result shifted, then tested at 0
    (
        "trylock-shifted",
        "int r = pthread_mutex_trylock(&m); r++; if (r == 0) x++; if (r == 1) pthread_mutex_unlock(&m);",
    ),
    // a lock, not a trylock, whose result is tested: it may fail (EDEADLK, EINVAL) and
    // it is no trylock
    (
        "unlock-result",
        "pthread_mutex_lock(&m); int r = pthread_mutex_unlock(&m); if (r == 0) x++;",
    ),
    // a long copied into an int: 2^32 differs from 0, its copy does not
    (
        "copy-narrowed",
        "long r = ((long)nondet() << 32) | (unsigned)nondet(); if (!r) pthread_mutex_lock(&m); int v = r; if (!v) x++;",
    ),
    // re-declared in a loop: a new object each round
    (
        "redeclared",
        "int n = 2; while (n--) { int i; i = nondet(); if (n) { if (i) pthread_mutex_lock(&m); } else { if (i) x++; } }",
    ),
];

/// Racy programs with their own `main` and helpers.
const RACY_GUARD_WHOLE: &[(&str, &str)] = &[
    // the local's address handed to a function that writes it
    (
        "address-taken",
        "void set(int *p) { *p = 1; }\nint main(void) { pthread_t t; pthread_create(&t, 0, w, 0); int i = nondet(); if (i) pthread_mutex_lock(&m); set(&i); if (i) x++; pthread_join(t, 0); return 0; }",
    ),
    // a short wraps where its int comparison does not: s = 0 locks nothing, s += 40000
    // gives -25536, which differs from 40000
    (
        "short-wrap",
        "int main(void) { pthread_t t; pthread_create(&t, 0, w, 0); short s = nondet(); if (s) pthread_mutex_lock(&m); s += 40000; if (s != 40000) x++; pthread_join(t, 0); return 0; }",
    ),
    // a char compared after promotion
    (
        "char-wrap",
        "int main(void) { pthread_t t; pthread_create(&t, 0, w, 0); unsigned char c = nondet(); if (c) pthread_mutex_lock(&m); c += 255; if (c - 255) x++; pthread_join(t, 0); return 0; }",
    ),
    // a global flag another thread sets between the two tests (atomically: no race on it)
    (
        "global-flag",
        "_Atomic int flag;\nvoid *w2(void *arg) { flag = 1; return 0; }\nint main(void) { pthread_t t, u; pthread_create(&t, 0, w, 0); pthread_create(&u, 0, w2, 0); if (flag) pthread_mutex_lock(&m); if (flag) x++; pthread_join(t, 0); pthread_join(u, 0); return 0; }",
    ),
    // a global flag another thread sets under a second lock, between main's two tests
    // (each made holding that lock: no race on the flag itself)
    (
        "global-under-lock",
        "int flag; pthread_mutex_t m2 = PTHREAD_MUTEX_INITIALIZER;\nvoid *w2(void *arg) { pthread_mutex_lock(&m2); flag = 1; pthread_mutex_unlock(&m2); return 0; }\nint main(void) { pthread_t t, u; pthread_create(&t, 0, w, 0); pthread_create(&u, 0, w2, 0); pthread_mutex_lock(&m2); if (flag) pthread_mutex_lock(&m); pthread_mutex_unlock(&m2); pthread_mutex_lock(&m2); if (flag) x++; pthread_mutex_unlock(&m2); pthread_join(t, 0); pthread_join(u, 0); return 0; }",
    ),
    // a static local of a routine two threads run, one of them setting it between the
    // other's tests (under a second lock)
    (
        "static-local",
        "pthread_mutex_t m2 = PTHREAD_MUTEX_INITIALIZER;\nvoid *w2(void *arg) { static int on; pthread_mutex_lock(&m2); if (on) pthread_mutex_lock(&m); pthread_mutex_unlock(&m2); pthread_mutex_lock(&m2); if (on) x++; pthread_mutex_unlock(&m2); pthread_mutex_lock(&m2); on = 1; pthread_mutex_unlock(&m2); return 0; }\nint main(void) { pthread_t t, u, v; pthread_create(&t, 0, w, 0); pthread_create(&u, 0, w2, 0); pthread_create(&v, 0, w2, 0); pthread_join(t, 0); pthread_join(u, 0); pthread_join(v, 0); return 0; }",
    ),
    // a callee unlocks between the tests
    (
        "callee-unlocks",
        "void release(void) { pthread_mutex_unlock(&m); }\nint main(void) { pthread_t t; pthread_create(&t, 0, w, 0); int i = nondet(); if (i) pthread_mutex_lock(&m); release(); if (i) x++; pthread_join(t, 0); return 0; }",
    ),
    // the test in the caller, the lock in the callee: the callee's facts do not leak
    (
        "callee-tests",
        "void take(int i) { if (i) pthread_mutex_lock(&m); }\nint main(void) { pthread_t t; pthread_create(&t, 0, w, 0); int i = nondet(); int j = i + 1; take(j); if (i) x++; pthread_join(t, 0); return 0; }",
    ),
    // a float shifted: no modular arithmetic
    (
        "float",
        "int main(void) { pthread_t t; pthread_create(&t, 0, w, 0); double d = nondet() * 1e20; if (d) pthread_mutex_lock(&m); d += 1; if (d != 1) x++; pthread_join(t, 0); return 0; }",
    ),
];

#[test]
fn racy_programs_built_to_fool_conditional_locks_are_not_proved() {
    let whole: Vec<(&str, String)> = RACY_GUARD.iter().map(|(n, b)| (*n, with_main(b))).collect();
    let whole: Vec<(&str, &str)> = whole.iter().map(|(n, b)| (*n, b.as_str())).collect();
    assert_none_proved(PRELUDE, &whole);
    assert_none_proved(PRELUDE, RACY_GUARD_WHOLE);
}

#[test]
fn conditional_locks_under_the_same_test_are_proved() {
    for (name, body) in [
        // goblint's idiom: the local shifted between the tests
        (
            "shifted",
            "int i = nondet(); if (i) pthread_mutex_lock(&m); i++; if (i - 1) x++; i--; if (i) pthread_mutex_unlock(&m);",
        ),
        ("plain", "int i = nondet(); if (i) pthread_mutex_lock(&m); if (i) x++; if (i) pthread_mutex_unlock(&m);"),
        (
            "equality",
            "long i = nondet(); if (i == 3) pthread_mutex_lock(&m); if (3 == i) x = x + 1; if (i == 3) pthread_mutex_unlock(&m);",
        ),
        (
            "negated",
            "unsigned i = nondet(); if (!i) pthread_mutex_lock(&m); i += 7; if (i == 7) x++; if (i != 7) { } else pthread_mutex_unlock(&m);",
        ),
        (
            "trylock",
            "int r = pthread_mutex_trylock(&m); if (r != 16) { if (r != 0) __CPROVER_assume(0); x++; pthread_mutex_unlock(&m); }",
        ),
        (
            "copied",
            "int r = nondet(); if (r) pthread_mutex_lock(&m); long v; v = r; if (v != 0) x++; if (v) pthread_mutex_unlock(&m);",
        ),
        (
            "else-branch",
            "int i = nondet(); if (i != 2) { } else pthread_mutex_lock(&m); if (i - 2) { } else { x++; pthread_mutex_unlock(&m); }",
        ),
    ] {
        let p = proof_of_source(&format!("{PRELUDE}{}", with_main(body)));
        assert!(
            p.proved,
            "{name}: {body}\n{:#?}",
            ladr_report::proof::lines(&p)
        );
    }
}
