//! The proof's lock functions built of atomic sections (`prove/userlock.rs`): racy
//! programs built to fool the rule are never proved, and the rule proves what it is for.

use crate::prove::{assert_none_proved, proof_of_source};

/// An acquire and a release of the shape the rule recognises, and a second mutex `n`.
const LOCKS: &str = r#"extern void __VERIFIER_atomic_begin(void);
extern void __VERIFIER_atomic_end(void);
extern void __VERIFIER_assume(int);
struct lock { int held; };
struct lock l;
int count;
void acquire(struct lock *p) { __VERIFIER_atomic_begin(); __VERIFIER_assume(p->held == 0); p->held = 1; __VERIFIER_atomic_end(); }
void release(struct lock *p) { __VERIFIER_atomic_begin(); p->held = 0; __VERIFIER_atomic_end(); }
void *worker(void *a) { acquire(&l); count++; release(&l); return 0; }
"#;

/// Racy programs (with [`LOCKS`]): each lets a second thread past the lock.
const RACY_USER_LOCK: &[(&str, &str)] = &[
    // a release by a thread that does not hold the lock
    (
        "u1",
        r#"void *intruder(void *a) { release(&l); acquire(&l); count++; release(&l); return 0; }
int main(void) { pthread_t t, u; pthread_create(&t, 0, worker, 0); pthread_create(&u, 0, intruder, 0); return 0; }"#,
    ),
    // another atomic section clears the field (a function of another shape)
    (
        "u2",
        r#"void clear(struct lock *p, int why) { __VERIFIER_atomic_begin(); p->held = 0; __VERIFIER_atomic_end(); }
void *intruder(void *a) { clear(&l, 1); acquire(&l); count++; return 0; }
int main(void) { pthread_t t, u; pthread_create(&t, 0, worker, 0); pthread_create(&u, 0, intruder, 0); return 0; }"#,
    ),
    // an atomic section clears the field through a pointer
    (
        "u3",
        r#"void *intruder(void *a) { int *h = &l.held; __VERIFIER_atomic_begin(); *h = 0; __VERIFIER_atomic_end(); acquire(&l); count++; return 0; }
int main(void) { pthread_t t, u; pthread_create(&t, 0, worker, 0); pthread_create(&u, 0, intruder, 0); return 0; }"#,
    ),
    // main holds the lock while it creates a thread, having cleared it while alone
    (
        "u4",
        r#"int main(void) { pthread_t t; acquire(&l); l.held = 0; pthread_create(&t, 0, worker, 0); count++; release(&l); return 0; }"#,
    ),
    // the release called through a pointer by a thread that does not hold the lock
    (
        "u5",
        r#"void (*rel)(struct lock *) = release;
void *intruder(void *a) { rel(&l); acquire(&l); count++; return 0; }
int main(void) { pthread_t t, u; pthread_create(&t, 0, worker, 0); pthread_create(&u, 0, intruder, 0); return 0; }"#,
    ),
    // the field cleared (not atomically) under another lock both threads take
    (
        "u6",
        r#"void *first(void *a) { pthread_mutex_lock(&m); acquire(&l); pthread_mutex_unlock(&m); count++; return 0; }
void *second(void *a) { pthread_mutex_lock(&m); l.held = 0; acquire(&l); pthread_mutex_unlock(&m); count++; return 0; }
int main(void) { pthread_t t, u; pthread_create(&t, 0, first, 0); pthread_create(&u, 0, second, 0); return 0; }"#,
    ),
    // a library call inside an atomic section clears the lock
    (
        "u7",
        r#"void *intruder(void *a) { __VERIFIER_atomic_begin(); memset(&l, 0, sizeof l); __VERIFIER_atomic_end(); acquire(&l); count++; return 0; }
int main(void) { pthread_t t, u; pthread_create(&t, 0, worker, 0); pthread_create(&u, 0, intruder, 0); return 0; }"#,
    ),
    // a struct assignment inside an atomic section clears the lock
    (
        "u8",
        r#"struct lock zero;
void *intruder(void *a) { __VERIFIER_atomic_begin(); l = zero; __VERIFIER_atomic_end(); acquire(&l); count++; return 0; }
int main(void) { pthread_t t, u; pthread_create(&t, 0, worker, 0); pthread_create(&u, 0, intruder, 0); return 0; }"#,
    ),
    // a builtin atomic store clears the field
    (
        "u9",
        r#"void *intruder(void *a) { __atomic_store_n(&l.held, 0, __ATOMIC_SEQ_CST); acquire(&l); count++; return 0; }
int main(void) { pthread_t t, u; pthread_create(&t, 0, worker, 0); pthread_create(&u, 0, intruder, 0); return 0; }"#,
    ),
    // a release through a parameter, by a thread that does not hold the lock
    (
        "u10",
        r#"void drop(struct lock *p) { release(p); }
void *intruder(void *a) { drop(&l); acquire(&l); count++; release(&l); return 0; }
int main(void) { pthread_t t, u; pthread_create(&t, 0, worker, 0); pthread_create(&u, 0, intruder, 0); return 0; }"#,
    ),
    // an atomic section calls a function of the program that clears the field
    (
        "u11",
        r#"void reset(void) { l.held = 0; }
void *intruder(void *a) { __VERIFIER_atomic_begin(); reset(); __VERIFIER_atomic_end(); acquire(&l); count++; return 0; }
int main(void) { pthread_t t, u; pthread_create(&t, 0, worker, 0); pthread_create(&u, 0, intruder, 0); return 0; }"#,
    ),
];

#[test]
fn racy_programs_built_to_fool_user_locks_are_not_proved() {
    assert_none_proved(LOCKS, RACY_USER_LOCK);
}

/// An acquire whose "assume" does not stop the thread is no acquire.
#[test]
fn an_acquire_that_does_not_wait_is_no_lock() {
    let body = r#"extern void __VERIFIER_atomic_begin(void);
extern void __VERIFIER_atomic_end(void);
void check(int c) { if (!c) { x = 1; } }
struct lock { int held; } l;
int count;
void acquire(struct lock *p) { __VERIFIER_atomic_begin(); check(p->held == 0); p->held = 1; __VERIFIER_atomic_end(); }
void release(struct lock *p) { __VERIFIER_atomic_begin(); p->held = 0; __VERIFIER_atomic_end(); }
void *worker(void *a) { acquire(&l); count++; release(&l); return 0; }
int main(void) { pthread_t t, u; pthread_create(&t, 0, worker, 0); pthread_create(&u, 0, worker, 0); return 0; }"#;
    let p = proof_of_source(body);
    assert!(!p.proved, "{:#?}", ladr_report::proof::lines(&p));
}

/// The rule proves the drivers' idiom: an assume function of the program's own, locks
/// wrapped in functions, a conditional acquire that sets the field to 1, the field set
/// while `main` runs alone.
#[test]
fn user_locks_prove_a_race_free_program() {
    let body = r#"extern void __VERIFIER_atomic_begin(void);
extern void __VERIFIER_atomic_end(void);
extern int __VERIFIER_nondet_int(void);
void assume_abort_if_not(int cond) { if (!cond) { abort(); } }
struct mutex { int init; int locked; };
struct mutex mx; int data;
void mutex_lock(struct mutex *lock) { __VERIFIER_atomic_begin(); assume_abort_if_not(lock->locked == 0); lock->locked = 1; __VERIFIER_atomic_end(); }
int mutex_trylock(struct mutex *lock) { int ok = __VERIFIER_nondet_int(); if (ok) { __VERIFIER_atomic_begin(); assume_abort_if_not(lock->locked == 0); lock->locked = 1; __VERIFIER_atomic_end(); } return ok; }
void mutex_unlock(struct mutex *lock) { __VERIFIER_atomic_begin(); lock->locked = 0; __VERIFIER_atomic_end(); }
void enter(void) { mutex_lock(&mx); }
void *worker(void *a) { enter(); data++; mutex_unlock(&mx); return 0; }
int main(void) { pthread_t t, u; mx.locked = 0; pthread_create(&t, 0, worker, 0); pthread_create(&u, 0, worker, 0); pthread_join(t, 0); pthread_join(u, 0); return data; }"#;
    let p = proof_of_source(body);
    assert!(p.proved, "{:#?}", ladr_report::proof::lines(&p));
    assert!(
        p.objects
            .iter()
            .any(|o| o.object == "data" && o.rule == "lock"),
        "{:#?}",
        ladr_report::proof::lines(&p)
    );
}
