//! The proof's library functions without a body (`prove/pure.rs`): value builtins, thread
//! identities and allocators no longer make it give up, a function pointer that may name
//! `malloc` or `free` is followed as their calls, and racy programs built around them are
//! never proved.

use crate::prove::{assert_none_proved, proof_of_source};

/// Two workers `w` (each program defines it) started by `main`, and an allocator table
/// whose function pointers name `malloc`, `free` and `memset`.
const MAIN: &str = "int main(void) { pthread_t t, u; pthread_create(&t, 0, w, 0); pthread_create(&u, 0, w, 0); return 0; }";

const TABLE: &str = r#"struct table { int n; void *(*alloc)(size_t); void (*release)(void *); void *(*fill)(void *, int, size_t); };
struct table cfg = {4, malloc, free, memset};
"#;

/// Racy workers: each touches `x` or the block `g` points to without a common lock,
/// through an argument of a value builtin, an allocator, or a function pointer.
const RACY_LIBRARY: &[(&str, &str)] = &[
    // the side effect inside `__builtin_expect`'s argument
    (
        "l1",
        "void *w(void *arg) { if (__builtin_expect(x++ == 0, 0)) return 0; return 0; }",
    ),
    // the side effect inside `malloc`'s size
    (
        "l2",
        "void *w(void *arg) { free(malloc(sizeof(int) * (size_t)x++)); return 0; }",
    ),
    // `memset` through the table writes `x` while the other worker holds the lock
    (
        "l3",
        "void *w(void *arg) { cfg.fill(&x, 0, sizeof x); pthread_mutex_lock(&m); x = 1; pthread_mutex_unlock(&m); return 0; }",
    ),
    // `free` through the table writes the block the other worker reads
    (
        "l4",
        "void *w(void *arg) { int v = *g; cfg.release(g); return (void *)(long)v; }",
    ),
    // the table's `n` written while the other worker reads it for `alloc`
    (
        "l5",
        "void *w(void *arg) { void *p = cfg.alloc((size_t)cfg.n); cfg.n++; free(p); return 0; }",
    ),
    // a prefetch is no access, the write after it is
    (
        "l6",
        "void *w(void *arg) { __builtin_prefetch(&x); x = (int)pthread_equal(pthread_self(), pthread_self()); return 0; }",
    ),
];

#[test]
fn racy_programs_through_library_functions_are_not_proved() {
    let programs: Vec<(&str, String)> = RACY_LIBRARY
        .iter()
        .map(|(name, w)| (*name, format!("{w}\n{MAIN}")))
        .collect();
    let programs: Vec<(&str, &str)> = programs.iter().map(|(n, b)| (*n, b.as_str())).collect();
    assert_none_proved(TABLE, &programs);
}

/// A function the program does not define and does not know may call back the function
/// pointer it is given: the proof still gives up.
#[test]
fn an_unknown_function_handed_a_function_still_stops_the_proof() {
    let body = r#"extern void run_later(void (*f)(void));
void bump(void) { x++; }
void *w(void *arg) { pthread_mutex_lock(&m); run_later(bump); pthread_mutex_unlock(&m); return 0; }
"#;
    let p = proof_of_source(&format!("{body}{MAIN}"));
    assert!(!p.proved, "{:#?}", ladr_report::proof::lines(&p));
}

/// The idiom of a real allocator table (8dcc/libpool), `__builtin_expect` on a member and
/// `pthread_equal`: proved, every access of `x` and the blocks under the lock.
#[test]
fn library_calls_without_callbacks_are_followed() {
    let w = r#"void *w(void *arg) {
  pthread_t me = pthread_self();
  pthread_mutex_lock(&m);
  int *block = cfg.alloc(sizeof(int) * (size_t)cfg.n);
  if (__builtin_expect(block != 0 && pthread_equal(me, me), 1)) {
    cfg.fill(block, 0, sizeof(int));
    block[0] = cfg.n;
    x += block[0];
    cfg.release(block);
  }
  pthread_mutex_unlock(&m);
  return 0;
}
"#;
    let p = proof_of_source(&format!("{TABLE}{w}{MAIN}"));
    assert!(p.proved, "{:#?}", ladr_report::proof::lines(&p));
    // The twin: the sum outside the lock.
    let twin = w.replace(
        "  pthread_mutex_unlock(&m);\n  return 0;",
        "  pthread_mutex_unlock(&m);\n  x++;\n  return 0;",
    );
    assert!(twin != w);
    assert!(!proof_of_source(&format!("{TABLE}{twin}{MAIN}")).proved);
}

/// Assembly with operands, or an instruction other than a spin-wait hint, may write
/// anything: the proof gives up. A `pause` between locked accesses is no access.
#[test]
fn only_spin_hint_assembly_is_no_access() {
    let racy: &[(&str, &str)] = &[
        (
            "a1",
            "void *w(void *arg) { __asm__ volatile(\"movl $1, %0\" : \"=m\"(x)); pthread_mutex_lock(&m); x++; pthread_mutex_unlock(&m); return 0; }",
        ),
        (
            "a2",
            "void *w(void *arg) { __asm__ volatile(\"incl x(%%rip)\" ::: \"memory\"); pthread_mutex_lock(&m); x++; pthread_mutex_unlock(&m); return 0; }",
        ),
        (
            "a3",
            "void *w(void *arg) { __asm__ volatile(\"pause\" : : \"r\"(&x) : \"memory\"); pthread_mutex_lock(&m); x++; pthread_mutex_unlock(&m); return 0; }",
        ),
        (
            "a4",
            "void *w(void *arg) { __asm__(\"pause\\n\\tincl x(%rip)\"); pthread_mutex_lock(&m); x++; pthread_mutex_unlock(&m); return 0; }",
        ),
        // a hint does not hide the unlocked write after it
        (
            "a5",
            "void *w(void *arg) { __asm__ volatile(\"pause\" ::: \"memory\"); x++; return 0; }",
        ),
    ];
    let programs: Vec<(&str, String)> = racy
        .iter()
        .map(|(name, w)| (*name, format!("{w}\n{MAIN}")))
        .collect();
    let programs: Vec<(&str, &str)> = programs.iter().map(|(n, b)| (*n, b.as_str())).collect();
    assert_none_proved("", &programs);
    let spin = "void *w(void *arg) { __asm__ volatile(\"pause\" ::: \"memory\"); __asm__ volatile(\"\"); pthread_mutex_lock(&m); x++; pthread_mutex_unlock(&m); return 0; }";
    let p = proof_of_source(&format!("{spin}\n{MAIN}"));
    assert!(p.proved, "{:#?}", ladr_report::proof::lines(&p));
}
