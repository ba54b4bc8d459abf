//! The proof's locks reached through pointers (`prove/lockptr.rs`): racy programs built
//! to fool the rule are never proved, and the rule proves what it is for.

use crate::prove::{assert_none_proved_with_main, proof_of_source};

/// Two boxes, each a mutex, a datum and a second mutex; `good` writes `b1.datum` holding
/// `b1.lock` through a pointer that may point to `b1` alone.
const BOXES: &str = r#"extern int __VERIFIER_nondet_int(void);
struct box { pthread_mutex_t lock; int datum; pthread_mutex_t other; };
struct box b1, b2;
void *good(void *arg) { struct box *p = &b1; pthread_mutex_lock(&p->lock); b1.datum++; pthread_mutex_unlock(&p->lock); return 0; }
"#;

/// `main` starting `good` and `bad` (unless the program has its own).
const MAIN: &str = "int main(void) { pthread_t t, u; pthread_create(&t, 0, good, 0); pthread_create(&u, 0, bad, 0); return 0; }";

/// `main` starting `bad` twice.
const TWICE: &str = "int main(void) { pthread_t t, u; pthread_create(&t, 0, bad, 0); pthread_create(&u, 0, bad, 0); return 0; }";

/// Racy threads `bad` (with [`BOXES`] and [`MAIN`]): each writes `b1.datum` holding a
/// mutex through a pointer that may not be `b1.lock`.
const RACY_LOCKPTR: &[(&str, &str)] = &[
    // a pointer that may point to either box
    (
        "k1",
        "void *bad(void *arg) { struct box *q = __VERIFIER_nondet_int() ? &b1 : &b2; pthread_mutex_lock(&q->lock); b1.datum--; pthread_mutex_unlock(&q->lock); return 0; }",
    ),
    // a pointer to a member, cast to the box: its `lock` is `b1.other`
    (
        "k2",
        "void *bad(void *arg) { struct box *q = (struct box *)&b1.other; pthread_mutex_lock(&q->lock); b1.datum--; pthread_mutex_unlock(&q->lock); return 0; }",
    ),
    // pointer arithmetic into the middle of the box
    (
        "k3",
        "void *bad(void *arg) { struct box *q = (struct box *)((char *)&b1 + __builtin_offsetof(struct box, other)); pthread_mutex_lock(&q->lock); b1.datum--; pthread_mutex_unlock(&q->lock); return 0; }",
    ),
    // the address moved as an integer by a compound assignment
    (
        "k4",
        "void *bad(void *arg) { long k = (long)&b1; k += __builtin_offsetof(struct box, other); struct box *q = (struct box *)k; pthread_mutex_lock(&q->lock); b1.datum--; pthread_mutex_unlock(&q->lock); return 0; }",
    ),
    // a character pointer stepped into the box with `++`
    (
        "k5",
        "void *bad(void *arg) { char *c = (char *)&b1; for (int i = 0; i < (int)__builtin_offsetof(struct box, other); i++) c++; struct box *q = (struct box *)c; pthread_mutex_lock(&q->lock); b1.datum--; pthread_mutex_unlock(&q->lock); return 0; }",
    ),
    // the address moved by an atomic add
    (
        "k6",
        "void *bad(void *arg) { long k = (long)&b1; __atomic_fetch_add(&k, __builtin_offsetof(struct box, other), 0); struct box *q = (struct box *)k; pthread_mutex_lock(&q->lock); b1.datum--; pthread_mutex_unlock(&q->lock); return 0; }",
    ),
    // the address moved by bit operations on an integer
    (
        "k7",
        "void *bad(void *arg) { long k = (long)&b1 | (long)__builtin_offsetof(struct box, other); struct box *q = (struct box *)k; pthread_mutex_lock(&q->lock); b1.datum--; pthread_mutex_unlock(&q->lock); return 0; }",
    ),
    // a pointer of another struct type at the box's start: its `lock` is `b1.other`
    (
        "k8",
        "struct alt { pthread_mutex_t pad; int d; pthread_mutex_t lock; };\nvoid *bad(void *arg) { struct alt *q = (struct alt *)&b1; pthread_mutex_lock(&q->lock); b1.datum--; pthread_mutex_unlock(&q->lock); return 0; }",
    ),
    // a block-scope struct of the same tag: its `lock` is where `b1.other` is
    (
        "k9",
        "void *bad(void *arg) { struct box { pthread_mutex_t other; int datum; pthread_mutex_t lock; }; struct box *q = (struct box *)&b1; pthread_mutex_lock(&q->lock); b1.datum--; pthread_mutex_unlock(&q->lock); return 0; }",
    ),
    // an unlock through a pointer that may name `b1.lock` ends it
    (
        "k10",
        "void *bad(void *arg) { struct box *q = __VERIFIER_nondet_int() ? &b1 : &b2; pthread_mutex_lock(&b1.lock); pthread_mutex_unlock(&q->lock); b1.datum--; pthread_mutex_unlock(&b1.lock); return 0; }",
    ),
    // an unlock through a pointer that names `b1.lock` ends it
    (
        "k11",
        "void *bad(void *arg) { struct box *q = &b1; pthread_mutex_lock(&b1.lock); pthread_mutex_unlock(&q->lock); b1.datum--; return 0; }",
    ),
    // the mutex initialised again through the pointer while `good` may hold it
    (
        "k12",
        "void *bad(void *arg) { struct box *q = &b1; pthread_mutex_init(&q->lock, 0); pthread_mutex_lock(&q->lock); b1.datum--; pthread_mutex_unlock(&q->lock); return 0; }",
    ),
    // a trylock through the pointer whose result is not tested
    (
        "k13",
        "void *bad(void *arg) { struct box *q = &b1; pthread_mutex_trylock(&q->lock); b1.datum--; pthread_mutex_unlock(&q->lock); return 0; }",
    ),
    // a parameter given both boxes by two calls
    (
        "k14",
        "void crit(struct box *q) { pthread_mutex_lock(&q->lock); b1.datum--; pthread_mutex_unlock(&q->lock); }\nvoid *bad(void *arg) { crit(&b2); crit(&b1); return 0; }",
    ),
    // the pointer moved to `b1` after the lock of `b2`
    (
        "k15",
        "void *bad(void *arg) { struct box *q = &b2; pthread_mutex_lock(&q->lock); q = &b1; q->datum--; pthread_mutex_unlock(&q->lock); return 0; }",
    ),
    // a pointer handed to a function without a body, which may move it
    (
        "k16",
        "extern void adjust(struct box **);\nvoid *bad(void *arg) { struct box *q = &b1; adjust(&q); pthread_mutex_lock(&q->lock); b1.datum--; pthread_mutex_unlock(&q->lock); return 0; }",
    ),
    // a mutex of a heap block: each thread its own
    (
        "k17",
        "void *bad(void *arg) { struct box *q = calloc(1, sizeof *q); pthread_mutex_lock(&q->lock); b1.datum--; pthread_mutex_unlock(&q->lock); return 0; }\nTWICE",
    ),
    // a mutex of a thread's own local: each thread its own
    (
        "k18",
        "void *bad(void *arg) { pthread_mutex_t mine; memset(&mine, 0, sizeof mine); pthread_mutex_t *q = &mine; pthread_mutex_lock(q); b1.datum--; pthread_mutex_unlock(q); return 0; }\nTWICE",
    ),
    // `main` called again: its local is two mutexes
    (
        "k19",
        "void *bad(void *arg) { pthread_mutex_t *q = arg; pthread_mutex_lock(q); b1.datum--; pthread_mutex_unlock(q); return 0; }\nint main(int argc, char **argv) { pthread_mutex_t mine; memset(&mine, 0, sizeof mine); pthread_t t; pthread_create(&t, 0, bad, &mine); if (argc < 2) main(argc + 1, argv); pthread_join(t, 0); return 0; }",
    ),
    // `main` run as a thread too: its local is two mutexes
    (
        "k20",
        "int started;\nvoid *bad(void *arg) { pthread_mutex_t *q = arg; pthread_mutex_lock(q); b1.datum--; pthread_mutex_unlock(q); return 0; }\nint main(void) { pthread_mutex_t mine; memset(&mine, 0, sizeof mine); pthread_t t, u; pthread_create(&t, 0, bad, &mine); if (!started) { started = 1; pthread_create(&u, 0, (void *(*)(void *))main, 0); } return 0; }",
    ),
    // a character pointer moved into the box by a compound assignment
    (
        "k22",
        "void *bad(void *arg) { char *c = (char *)&b1; c += __builtin_offsetof(struct box, other); struct box *q = (struct box *)c; pthread_mutex_lock(&q->lock); b1.datum--; pthread_mutex_unlock(&q->lock); return 0; }",
    ),
    // read-locked through the pointer by two threads
    (
        "k23",
        "struct rw { pthread_rwlock_t l; int d; } rb;\nvoid *bad(void *arg) { struct rw *q = &rb; pthread_rwlock_rdlock(&q->l); rb.d++; pthread_rwlock_unlock(&q->l); return 0; }\nTWICE",
    ),
    // a pointer loaded from a global that a thread points elsewhere
    (
        "k24",
        "struct box *gp = &b1;\nvoid *bad(void *arg) { gp = &b2; struct box *q = gp; pthread_mutex_lock(&q->lock); b1.datum--; pthread_mutex_unlock(&q->lock); return 0; }",
    ),
];

#[test]
fn racy_programs_built_to_fool_locks_through_pointers_are_not_proved() {
    let programs: Vec<(&str, String)> = RACY_LOCKPTR
        .iter()
        .map(|(n, b)| (*n, b.replace("TWICE", TWICE)))
        .collect();
    let programs: Vec<(&str, &str)> = programs.iter().map(|(n, b)| (*n, b.as_str())).collect();
    assert_none_proved_with_main(BOXES, MAIN, &programs);
}

/// The control: `bad` locking `b1.lock` through a pointer is proved, so the racy
/// programs above are unproved for what they change.
#[test]
fn a_lock_through_a_pointer_to_one_global_proves_the_boxes() {
    let bad = "void *bad(void *arg) { struct box *q = &b1; pthread_mutex_lock(&q->lock); b1.datum--; pthread_mutex_unlock(&q->lock); return 0; }";
    let p = proof_of_source(&format!("{BOXES}{bad}\n{MAIN}"));
    assert!(p.proved, "{:#?}", ladr_report::proof::lines(&p));
    assert!(
        p.objects
            .iter()
            .any(|o| o.object == "b1" && o.rule == "lock"),
        "{:#?}",
        ladr_report::proof::lines(&p)
    );
}

/// The rule's forms: a global box reached through a parameter and through a global
/// pointer, a mutex pointer itself, `main`'s own box handed to the threads as their
/// argument, an rwlock write-locked through a pointer.
#[test]
fn locks_through_pointers_prove_a_race_free_program() {
    let body = r#"struct box { pthread_mutex_t lock; int datum; };
struct box shared_box;
struct box *where = &shared_box;
pthread_mutex_t *plain = &m;
struct rw { int d; pthread_rwlock_t l; } rb = { 0, PTHREAD_RWLOCK_INITIALIZER };
void crit(struct box *b) { pthread_mutex_lock(&b->lock); b->datum++; pthread_mutex_unlock(&b->lock); }
void *w(void *arg) {
  struct box *mine = arg;
  crit(&shared_box);
  struct box *q = where;
  pthread_mutex_lock(&q->lock); shared_box.datum--; pthread_mutex_unlock(&q->lock);
  pthread_mutex_lock(plain); x++; pthread_mutex_unlock(plain);
  pthread_mutex_lock(&mine->lock); mine->datum++; pthread_mutex_unlock(&mine->lock);
  struct rw *r = &rb;
  pthread_rwlock_wrlock(&r->l); rb.d++; pthread_rwlock_unlock(&r->l);
  return 0;
}
int main(void) {
  struct box local;
  pthread_mutex_init(&local.lock, 0);
  local.datum = 0;
  pthread_t t[2];
  for (int i = 0; i < 2; i++) pthread_create(&t[i], 0, w, &local);
  pthread_mutex_lock(&m); x = 1; pthread_mutex_unlock(&m);
  for (int i = 0; i < 2; i++) pthread_join(t[i], 0);
  return local.datum;
}"#;
    let p = proof_of_source(body);
    assert!(p.proved, "{:#?}", ladr_report::proof::lines(&p));
    for object in ["shared_box", "x", "local", "rb"] {
        assert!(
            p.objects
                .iter()
                .any(|o| o.object.starts_with(object) && o.rule == "lock"),
            "{object}: {:#?}",
            ladr_report::proof::lines(&p)
        );
    }
}
