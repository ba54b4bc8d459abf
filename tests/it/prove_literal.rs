//! The proof's compound literals (`prove/access.rs`, `prove/heap.rs`): `normalise` makes a
//! local's braced initialiser `x = (__typeof__(x)){…}`; read as a copied value, such a
//! literal is the reads of its initialisers, and its value holds what they point to.
//! Racy programs built to fool that are never proved; the rule proves what it is for.

use crate::prove::{assert_none_proved_with_main, proof_of_source};

/// Shared objects the racy threads below reach.
const SHARED: &str = r#"pthread_mutex_t ma = PTHREAD_MUTEX_INITIALIZER, mb = PTHREAD_MUTEX_INITIALIZER;
struct ref { int *p; int n; };
struct two { struct ref r; int k; };
int gv;
int garr[4];
struct ref gref;
void *good(void *arg) { pthread_mutex_lock(&ma); gv++; garr[1]++; pthread_mutex_unlock(&ma); return 0; }
"#;

/// `main` starting `good` and `bad` (unless the program has its own).
const MAIN: &str = "int main(void) { pthread_t t, u; pthread_create(&t, 0, good, 0); pthread_create(&u, 0, bad, 0); return 0; }";

/// Racy threads `bad`: each touches `gv` or `garr` without `ma`, through a literal.
const RACY: &[(&str, &str)] = &[
    // a pointer in the initialiser, written through the copy's member
    (
        "c1",
        "void *bad(void *arg) { struct ref r = { &gv, 0 }; *r.p = 1; return 0; }",
    ),
    // a shared value read by the initialiser
    (
        "c2",
        "void *bad(void *arg) { struct ref r = { 0, gv }; return (void *)(long)r.n; }",
    ),
    // a nested struct's pointer, written under another mutex
    (
        "c3",
        "void *bad(void *arg) { struct two t = { { &gv, 1 }, 2 }; pthread_mutex_lock(&mb); *t.r.p = 3; pthread_mutex_unlock(&mb); return 0; }",
    ),
    // an array's address in the initialiser (it decays), an element written
    (
        "c4",
        "void *bad(void *arg) { struct ref r = { garr, 0 }; r.p[1] = 5; return 0; }",
    ),
    // the literal's pointer copied on to a global, written through by another thread
    (
        "c5",
        "void *bad(void *arg) { struct ref r = { &gv, 0 }; gref = r; *gref.p = 4; return 0; }",
    ),
    // the literal's address taken: its object reached through a pointer
    (
        "c6",
        "void *bad(void *arg) { struct ref *q = &(struct ref){ &gv, 0 }; *q->p = 2; return 0; }",
    ),
    // an array literal decays to its address; its element points to the shared object
    (
        "c7",
        "void *bad(void *arg) { int **a = (int *[]){ &gv, 0 }; *a[0] = 6; return 0; }",
    ),
    // an array local with an initialiser (not a copied value)
    (
        "c8",
        "void *bad(void *arg) { int *a[2] = { &gv, &gv }; *a[1] = 7; return 0; }",
    ),
    // the initialiser calls a function that writes the shared object
    (
        "c9",
        "int bump(void) { return ++gv; }\nvoid *bad(void *arg) { struct ref r = { 0, bump() }; return (void *)(long)r.n; }",
    ),
    // a pointer member taken from a shared pointer read unprotected, then written through
    (
        "c10",
        "void *bad(void *arg) { struct ref r = { gref.p, 0 }; *r.p = 8; return 0; }\nint main(void) { gref.p = &gv; pthread_t t, u; pthread_create(&t, 0, good, 0); pthread_create(&u, 0, bad, 0); return 0; }",
    ),
];

#[test]
fn racy_programs_with_compound_literals_are_not_proved() {
    assert_none_proved_with_main(SHARED, MAIN, RACY);
}

/// Locals with braced initialisers (a struct, a nested one, one holding a shared object's
/// address and value read under its lock), each thread its own: proved.
#[test]
fn locals_with_braced_initialisers_are_proved() {
    let body = r#"pthread_mutex_t ma = PTHREAD_MUTEX_INITIALIZER;
struct ref { int *p; int n; };
struct two { struct ref r; int k; };
int gv;
void *w(void *arg) {
  struct ref r = { 0, 1 };
  struct two t = { { 0, 2 }, 3 };
  r.n += t.k + t.r.n;
  pthread_mutex_lock(&ma);
  struct ref s = { &gv, gv };
  *s.p = s.n + 1;
  pthread_mutex_unlock(&ma);
  return 0;
}
int main(void) {
  pthread_t t[2];
  for (int i = 0; i < 2; i++) pthread_create(&t[i], 0, w, 0);
  for (int i = 0; i < 2; i++) pthread_join(t[i], 0);
  return 0;
}"#;
    let p = proof_of_source(body);
    assert!(p.proved, "{:#?}", ladr_report::proof::lines(&p));
}
