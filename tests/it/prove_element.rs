//! The proof's lock inside the array element it protects (`prove/element.rs`): racy
//! programs built to fool the rule are never proved, and the rule proves what it is for.

use crate::prove::{assert_none_proved, assert_none_proved_with_main, proof_of_source};

/// Cells with a datum and two mutexes, a second array of them, a chooser of an index, and
/// a worker that follows the rule.
const CELLS: &str = r#"extern int __VERIFIER_nondet_int(void);
struct cell { int datum; int other; pthread_mutex_t mutex; pthread_mutex_t second; };
struct cell a[4], b[4];
int pick(void) { int i = __VERIFIER_nondet_int(); if (i < 0 || i > 3) abort(); return i; }
void *good(void *arg) { int i = pick(); pthread_mutex_lock(&a[i].mutex); a[i].datum++; pthread_mutex_unlock(&a[i].mutex); return 0; }
"#;

/// `main` starting `good` and the racy thread `bad` (unless the program has its own).
const MAIN: &str = "int main(void) { pthread_t t, u; pthread_create(&t, 0, good, 0); pthread_create(&u, 0, bad, 0); return 0; }";

/// Racy threads `bad` (with [`CELLS`] and [`MAIN`]): each writes a datum of `a` whose
/// element's `mutex` it may not hold.
const RACY_ELEMENT: &[(&str, &str)] = &[
    // the index written between the lock and the access
    (
        "e1",
        "void *bad(void *arg) { int i = pick(); int j = i; pthread_mutex_lock(&a[i].mutex); i = pick(); a[i].datum++; pthread_mutex_unlock(&a[j].mutex); return 0; }",
    ),
    // the pointer moved to another element between the lock and the access
    (
        "e2",
        "void *bad(void *arg) { struct cell *p = &a[pick()]; struct cell *q = p; pthread_mutex_lock(&p->mutex); p = &a[pick()]; p->datum++; pthread_mutex_unlock(&q->mutex); return 0; }",
    ),
    // the lock of a[i], the access of a[j]
    (
        "e3",
        "void *bad(void *arg) { int i = pick(); int j = pick(); pthread_mutex_lock(&a[i].mutex); a[j].datum++; pthread_mutex_unlock(&a[i].mutex); return 0; }",
    ),
    // two pointers, to two elements maybe
    (
        "e4",
        "void *bad(void *arg) { struct cell *p = &a[pick()]; struct cell *q = &a[pick()]; pthread_mutex_lock(&p->mutex); q->datum++; pthread_mutex_unlock(&p->mutex); return 0; }",
    ),
    // a pointer of another struct type: its `mutex` is elsewhere in memory
    (
        "e5",
        "struct small { int datum; pthread_mutex_t mutex; };\nvoid *bad(void *arg) { int i = pick(); struct small *p = (struct small *)&a[i]; pthread_mutex_lock(&p->mutex); a[i].datum++; pthread_mutex_unlock(&p->mutex); return 0; }",
    ),
    // a pointer of another struct type given an element without a cast
    (
        "e5b",
        "struct small { int datum; pthread_mutex_t mutex; };\nvoid *bad(void *arg) { int i = pick(); struct small *p; p = &a[i]; pthread_mutex_lock(&p->mutex); p->datum++; pthread_mutex_unlock(&p->mutex); return 0; }",
    ),
    // another mutex of the element
    (
        "e6",
        "void *bad(void *arg) { int i = pick(); pthread_mutex_lock(&a[i].second); a[i].datum++; pthread_mutex_unlock(&a[i].second); return 0; }",
    ),
    // the index's address escapes and it is written through it
    (
        "e7",
        "void set(int *k) { *k = pick(); }\nvoid *bad(void *arg) { int i = pick(); int j = i; pthread_mutex_lock(&a[i].mutex); set(&i); a[i].datum++; pthread_mutex_unlock(&a[j].mutex); return 0; }",
    ),
    // a pointer of the same type into the next element
    (
        "e8",
        "void *bad(void *arg) { int i = pick() % 3; struct cell *p = &a[i]; pthread_mutex_lock(&p->mutex); p[1].datum++; pthread_mutex_unlock(&p->mutex); return 0; }",
    ),
    // the pointer moved by arithmetic
    (
        "e9",
        "void *bad(void *arg) { int i = pick() % 3; struct cell *p = &a[i]; pthread_mutex_lock(&p->mutex); p++; p->datum++; pthread_mutex_unlock(&a[i].mutex); return 0; }",
    ),
    // an element pointer that may point into the other array
    (
        "e10",
        "void *bad(void *arg) { int i = pick(); struct cell *p; if (i & 1) p = &a[i]; else p = &b[i]; pthread_mutex_lock(&b[i].mutex); p->datum++; pthread_mutex_unlock(&b[i].mutex); return 0; }",
    ),
    // the lock held over a call whose own index differs
    (
        "e11",
        "void bump(int k) { a[k].datum++; }\nvoid *bad(void *arg) { int i = pick(); pthread_mutex_lock(&a[i].mutex); bump(pick()); pthread_mutex_unlock(&a[i].mutex); return 0; }",
    ),
    // recursion: the inner call's `i` is another object of one declaration
    (
        "e12",
        "void rec(int n) { int i = pick(); if (n > 0) { pthread_mutex_lock(&a[i].mutex); rec(n - 1); pthread_mutex_unlock(&a[i].mutex); } else { a[i].datum++; } }\nvoid *bad(void *arg) { rec(1); return 0; }",
    ),
    // an unlock of another element that may be this one
    (
        "e13",
        "void *bad(void *arg) { int i = pick(); int j = pick(); pthread_mutex_lock(&a[i].mutex); pthread_mutex_unlock(&a[j].mutex); a[i].datum++; return 0; }",
    ),
    // the element's mutex initialised again while threads run
    (
        "e14",
        "void *bad(void *arg) { int j = pick(); pthread_mutex_init(&a[j].mutex, 0); pthread_mutex_lock(&a[j].mutex); a[j].datum++; pthread_mutex_unlock(&a[j].mutex); return 0; }",
    ),
    // a trylock whose result is not tested
    (
        "e15",
        "void *bad(void *arg) { int i = pick(); pthread_mutex_trylock(&a[i].mutex); a[i].datum++; pthread_mutex_unlock(&a[i].mutex); return 0; }",
    ),
    // the datum written by the library under another mutex
    (
        "e16",
        "void *bad(void *arg) { int i = pick(); pthread_mutex_lock(&a[i].second); memset(&a[i].datum, 0, sizeof(int)); pthread_mutex_unlock(&a[i].second); return 0; }",
    ),
    // the index redeclared in a loop: the lock of the first round is not the second's
    (
        "e17",
        "void *bad(void *arg) { int k = 0; pthread_mutex_t *held = 0; while (k < 2) { int i = pick(); if (k == 0) { held = &a[i].mutex; pthread_mutex_lock(held); } a[i].datum++; k++; } pthread_mutex_unlock(held); return 0; }",
    ),
    // a global index is no key (here the thread itself changes it)
    (
        "e18",
        "int gi;\nvoid *bad(void *arg) { pthread_mutex_lock(&a[gi].mutex); gi = pick(); a[gi].datum++; pthread_mutex_unlock(&a[gi].mutex); return 0; }",
    ),
    // a constant-index mutex of another element than the one accessed
    (
        "e19",
        "void *bad(void *arg) { pthread_mutex_lock(&a[0].mutex); a[1].datum++; pthread_mutex_unlock(&a[0].mutex); return 0; }",
    ),
    // a parameter is no element pointer, even when the function later gives it one:
    // its value on entry is the caller's (here an element of `b`)
    (
        "e20",
        "void work(struct cell *p) { pthread_mutex_lock(&p->mutex); p->datum++; pthread_mutex_unlock(&p->mutex); p = &a[0]; }\nvoid *bad(void *arg) { int i = pick(); work(&b[i]); pthread_mutex_lock(&b[i].second); b[i].datum++; pthread_mutex_unlock(&b[i].second); return 0; }\nint main(void) { pthread_t t, u; pthread_create(&t, 0, bad, 0); pthread_create(&u, 0, bad, 0); return 0; }",
    ),
    // a block-scope struct of the same tag: `p->mutex` is the element's `second`
    (
        "e21",
        "void *bad(void *arg) { struct cell { int datum; int other; pthread_mutex_t second; pthread_mutex_t mutex; }; struct cell *p; p = &a[pick()]; pthread_mutex_lock(&p->mutex); p->datum++; pthread_mutex_unlock(&p->mutex); return 0; }",
    ),
    // a parameter given an element of `a` by one call, by another a cast pointer to memory
    // whose mutex is elsewhere
    (
        "e22",
        "struct small { int datum; pthread_mutex_t mutex; } s[4];\nvoid work(struct cell *p) { pthread_mutex_lock(&p->mutex); p->datum++; pthread_mutex_unlock(&p->mutex); }\nvoid *bad(void *arg) { work(&a[pick()]); work((struct cell *)&s[1]); return 0; }\nvoid *other(void *arg) { pthread_mutex_lock(&s[1].mutex); s[1].datum++; pthread_mutex_unlock(&s[1].mutex); return 0; }\nint main(void) { pthread_t t, u; pthread_create(&t, 0, bad, 0); pthread_create(&u, 0, other, 0); return 0; }",
    ),
    // the same, the cast call made through a function pointer
    (
        "e23",
        "struct small { int datum; pthread_mutex_t mutex; } s[4];\nvoid work(struct cell *p) { pthread_mutex_lock(&p->mutex); p->datum++; pthread_mutex_unlock(&p->mutex); }\nvoid (*fp)(struct cell *) = work;\nvoid *bad(void *arg) { work(&a[pick()]); fp((struct cell *)&s[1]); return 0; }\nvoid *other(void *arg) { pthread_mutex_lock(&s[1].mutex); s[1].datum++; pthread_mutex_unlock(&s[1].mutex); return 0; }\nint main(void) { pthread_t t, u; pthread_create(&t, 0, bad, 0); pthread_create(&u, 0, other, 0); return 0; }",
    ),
    // a parameter given elements by every call, written with another pointer's value
    (
        "e24",
        "void work(struct cell *p, struct cell *q) { pthread_mutex_lock(&p->mutex); p = q; p->datum++; pthread_mutex_unlock(&q->mutex); }\nvoid *bad(void *arg) { work(&a[pick()], &a[pick()]); return 0; }",
    ),
];

#[test]
fn racy_programs_built_to_fool_element_locks_are_not_proved() {
    assert_none_proved_with_main(CELLS, MAIN, RACY_ELEMENT);
}

/// A union member or the rwlock read-locked: no exclusion.
#[test]
fn overlapping_members_and_read_locks_are_no_element_locks() {
    let union_cells = r#"extern int __VERIFIER_nondet_int(void);
union cell { int datum; pthread_mutex_t mutex; } u[4];
void *w(void *arg) { int i = __VERIFIER_nondet_int() & 3; pthread_mutex_lock(&u[i].mutex); u[i].datum = 1; pthread_mutex_unlock(&u[i].mutex); return 0; }
int main(void) { pthread_t t, v; pthread_create(&t, 0, w, 0); pthread_create(&v, 0, w, 0); return 0; }"#;
    let read_locked = r#"extern int __VERIFIER_nondet_int(void);
struct rw { int datum; pthread_rwlock_t lock; } r[4];
void *w(void *arg) { int i = __VERIFIER_nondet_int() & 3; pthread_rwlock_rdlock(&r[i].lock); r[i].datum++; pthread_rwlock_unlock(&r[i].lock); return 0; }
int main(void) { pthread_t t, v; pthread_create(&t, 0, w, 0); pthread_create(&v, 0, w, 0); return 0; }"#;
    assert_none_proved("", &[("union", union_cells), ("rdlock", read_locked)]);
}

/// A parameter every call gives an element (SV-COMP's goblint `06-symbeq_05`), and a
/// constant index in `main`.
#[test]
fn element_pointer_parameters_prove_a_race_free_program() {
    let body = r#"struct entry { int refs; pthread_mutex_t refs_mutex; } cache[10];
void addref(struct entry *e) { pthread_mutex_lock(&e->refs_mutex); e->refs++; pthread_mutex_unlock(&e->refs_mutex); }
void *w(void *arg) { for (int i = 0; i < 10; i++) addref(&cache[i]); return 0; }
int main(void) {
  pthread_t t;
  pthread_create(&t, 0, w, 0);
  for (int i = 0; i < 10; i++) addref(&cache[i]);
  pthread_mutex_lock(&cache[5].refs_mutex); cache[5].refs++; pthread_mutex_unlock(&cache[5].refs_mutex);
  return 0;
}"#;
    let p = proof_of_source(body);
    assert!(p.proved, "{:#?}", ladr_report::proof::lines(&p));
    assert!(
        p.objects
            .iter()
            .any(|o| o.object == "cache" && o.rule == "element-lock"),
        "{:#?}",
        ladr_report::proof::lines(&p)
    );
    // The twin: `main` locks `cache[4]` and writes `cache[5]`.
    let twin = body.replace("&cache[5].refs_mutex", "&cache[4].refs_mutex");
    assert!(!proof_of_source(&twin).proved);
}

/// The rule proves the idiom in its forms: the index and the pointer, a loop over the
/// elements, a nested mutex, a constant index against a variable one, threads created in
/// a loop, a write-locked rwlock.
#[test]
fn element_locks_prove_a_race_free_program() {
    let body = r#"extern int __VERIFIER_nondet_int(void);
struct inner { pthread_mutex_t m; int n; };
struct cell { int datum; struct inner in; long other; } a[4];
void *w(void *arg) {
  for (int i = 0; i < 4; i++) { pthread_mutex_lock(&a[i].in.m); a[i].datum++; a[i].other = a[i].in.n; pthread_mutex_unlock(&a[i].in.m); }
  int j = __VERIFIER_nondet_int() & 3;
  struct cell *p;
  p = &a[j];
  pthread_mutex_lock(&p->in.m); j++; p->datum--; p->in.n = j; pthread_mutex_unlock(&p->in.m);
  return 0;
}
int main(void) {
  pthread_t t[3];
  for (int k = 0; k < 3; k++) pthread_create(&t[k], 0, w, 0);
  pthread_mutex_lock(&a[2].in.m); a[2].datum = 0; pthread_mutex_unlock(&a[2].in.m);
  return 0;
}"#;
    let p = proof_of_source(body);
    assert!(p.proved, "{:#?}", ladr_report::proof::lines(&p));
    assert!(
        p.objects
            .iter()
            .any(|o| o.object == "a" && o.rule == "element-lock"),
        "{:#?}",
        ladr_report::proof::lines(&p)
    );
}
