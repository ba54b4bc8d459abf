//! Inline assembly with operands in the proof (`prove/asm.rs`): its operands are read and
//! written as C would, so racy programs through them are never proved, and a lock still
//! proves them.

use crate::prove::{assert_none_proved, assert_proved_by, proof_of_source};

/// `main` starting two threads of `t` and joining them.
const MAIN: &str = "int main(void) { pthread_t a, b; pthread_create(&a, 0, t, 0); \
    pthread_create(&b, 0, t, 0); pthread_join(a, 0); pthread_join(b, 0); return x; }";

#[test]
fn asm_operands_under_a_lock_are_proved() {
    let body = format!(
        "void *t(void *a) {{ int old; pthread_mutex_lock(&m); \
         __asm__ volatile (\"xchgl %0, %1\" : \"=r\" (old), \"+m\" (x) : \"0\" (1)); \
         pthread_mutex_unlock(&m); return 0; }}\n{MAIN}"
    );
    assert_proved_by("", &body, "x", &["lock"]);
}

#[test]
fn racy_asm_operands_are_not_proved() {
    let racy = [
        // an output operand written by both threads
        (
            "a1",
            "void *t(void *a) { __asm__ (\"movl $1, %0\" : \"=m\" (x)); return 0; }",
        ),
        // an input memory operand read while the other thread writes it
        (
            "a2",
            "void *t(void *a) { int r; __asm__ (\"movl %1, %0\" : \"=r\" (r) : \"m\" (x)); \
             x = r + 1; return 0; }",
        ),
        // a read-write operand through a pointer to the shared variable
        (
            "a3",
            "void *t(void *a) { int *p = &x; __asm__ volatile (\"incl %0\" : \"+m\" (*p)); \
             return 0; }",
        ),
        // the key of an index written by the assembly: every thread may get the same one
        (
            "a4",
            "int arr[8];\nvoid *t(void *a) { int k = (int)(long)a; \
             __asm__ (\"\" : \"=r\" (k)); arr[k] = 1; return 0; }",
        ),
    ];
    let whole: Vec<(&str, String)> = racy
        .iter()
        .map(|(n, b)| (*n, format!("{b}\n{MAIN}")))
        .collect();
    let whole: Vec<(&str, &str)> = whole.iter().map(|(n, b)| (*n, b.as_str())).collect();
    assert_none_proved("", &whole);
}

#[test]
fn asm_that_clobbers_memory_stops_the_proof() {
    let body = format!(
        "void *t(void *a) {{ int r = 0; pthread_mutex_lock(&m); \
         __asm__ volatile (\"\" : \"+r\" (r) : : \"memory\"); x = r; \
         pthread_mutex_unlock(&m); return 0; }}\n{MAIN}"
    );
    let p = proof_of_source(&body);
    assert!(!p.proved, "{:#?}", ladr_report::proof::lines(&p));
    let lines = ladr_report::proof::lines(&p).join("\n");
    assert!(lines.contains("inline assembly"), "{lines}");
}
