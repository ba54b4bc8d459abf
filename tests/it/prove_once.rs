//! The proof's `pthread_once` rule (`prove/once.rs`): racy programs built to fool it are
//! never proved, and it proves what it is for.

use crate::prove::{assert_none_proved, proof_of_source};

/// Two once-controls, two routines writing `t`.
const ONCE: &str = r#"int t;
pthread_once_t o = PTHREAD_ONCE_INIT, o2 = PTHREAD_ONCE_INIT;
void init(void) { t = 1; }
void init2(void) { t = 2; }
"#;

/// `main` starting `w1` and `w2`.
const MAIN: &str = "int main(void) { pthread_t a, b; pthread_create(&a, 0, w1, 0); pthread_create(&b, 0, w2, 0); return 0; }";

/// Racy threads `w1`, `w2` (with [`ONCE`] and [`MAIN`]).
const RACY_ONCE: &[(&str, &str)] = &[
    // a read before pthread_once returns
    (
        "before",
        "void *w1(void *arg) { int v = t; pthread_once(&o, init); return (void *)(long)v; }\nvoid *w2(void *arg) { pthread_once(&o, init); return 0; }",
    ),
    // the same routine under two once-controls: it may run twice at once
    (
        "two-controls",
        "void *w1(void *arg) { pthread_once(&o, init); return 0; }\nvoid *w2(void *arg) { pthread_once(&o2, init); return 0; }",
    ),
    // two routines: the read after one, the write in the other
    (
        "two-routines",
        "void *w1(void *arg) { pthread_once(&o, init); return (void *)(long)t; }\nvoid *w2(void *arg) { pthread_once(&o2, init2); return 0; }",
    ),
    // the routine also called directly
    (
        "direct",
        "void *w1(void *arg) { pthread_once(&o, init); return (void *)(long)t; }\nvoid *w2(void *arg) { init(); return 0; }",
    ),
    // two threads writing after pthread_once returned
    (
        "after-both",
        "void *w1(void *arg) { pthread_once(&o, init); t++; return 0; }\nvoid *w2(void *arg) { pthread_once(&o, init); t++; return 0; }",
    ),
    // the once-control reset (under a lock, so not itself racing): the routine runs again
    (
        "reset",
        "void *w1(void *arg) { pthread_mutex_lock(&m); o = (pthread_once_t)PTHREAD_ONCE_INIT; pthread_mutex_unlock(&m); pthread_once(&o, init); return 0; }\nvoid *w2(void *arg) { pthread_once(&o, init); return (void *)(long)t; }",
    ),
    // the once-control reset through a pointer
    (
        "reset-pointer",
        "void *w1(void *arg) { pthread_once_t *p = &o; pthread_mutex_lock(&m); memset(p, 0, sizeof *p); pthread_mutex_unlock(&m); pthread_once(&o, init); return 0; }\nvoid *w2(void *arg) { pthread_once(&o, init); return (void *)(long)t; }",
    ),
    // a once-control the proof cannot name (a pointer that may point to either)
    (
        "pointer-control",
        "pthread_once_t *which;\nvoid *w1(void *arg) { pthread_once(which, init); return (void *)(long)t; }\nvoid *w2(void *arg) { pthread_once(&o, init); return 0; }\nint main(void) { pthread_t a, b; which = arg_pick() ? &o : &o2; pthread_create(&a, 0, w1, 0); pthread_create(&b, 0, w2, 0); return 0; }",
    ),
];

#[test]
fn racy_programs_built_to_fool_pthread_once_are_not_proved() {
    let programs: Vec<(&str, String)> = RACY_ONCE
        .iter()
        .map(|(name, body)| match body.contains("int main(") {
            true => (*name, format!("int arg_pick(void);\n{body}")),
            false => (*name, format!("{body}\n{MAIN}")),
        })
        .collect();
    let programs: Vec<(&str, &str)> = programs.iter().map(|(n, b)| (*n, b.as_str())).collect();
    assert_none_proved(ONCE, &programs);
}

/// Every thread reads `t` only after its `pthread_once` returned: proved, and `t` is safe
/// by the once rule (all its accesses in the routine) or per pair.
#[test]
fn reads_after_pthread_once_are_proved() {
    let body = format!(
        "{ONCE}void *w1(void *arg) {{ pthread_once(&o, init); return (void *)(long)t; }}\nvoid *w2(void *arg) {{ pthread_once(&o, init); return (void *)(long)t; }}\n{MAIN}"
    );
    let p = proof_of_source(&body);
    assert!(p.proved, "{:#?}", ladr_report::proof::lines(&p));
    assert!(
        p.objects.iter().any(|o| o.object == "t"),
        "{:#?}",
        ladr_report::proof::lines(&p)
    );
}
