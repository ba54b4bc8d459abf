//! The proof's heap objects by allocation site (`prove/heap.rs`): racy programs built to
//! fool the points-to (aliases through copies, loops, `realloc`, reuse after `free`,
//! escapes through globals, integers, `memcpy`, structs, functions without a body, lists)
//! are never proved, and per-site objects prove what they are for.

use crate::prove::{assert_none_proved_with_main, proof_of_source};

/// A list node, a nondeterministic value, a function without a body.
const PRELUDE: &str = r#"extern int __VERIFIER_nondet_int(void);
extern void keep(int *p);
extern int *give(void);
struct node { int datum; struct node *next; };
struct node *head;
long cell;
"#;

/// `main` starting one thread of `w` with no argument, writing the block it keeps in
/// `a` while the thread runs (unless the program has its own `main`).
const MAIN: &str = r#"int main(void) {
  pthread_t t;
  int *a = malloc(sizeof(int));
  pthread_create(&t, 0, w, 0);
  *a = 2;
  pthread_join(t, 0);
  return 0;
}"#;

/// Racy programs (with [`PRELUDE`] and [`MAIN`]): two thread instances, or a thread and
/// `main`, may touch one block, one of them writing, with no common lock.
const RACY_HEAP: &[(&str, &str)] = &[
    // two sites aliased through a pointer copy
    (
        "h1",
        "void *w(void *arg) { int *q = arg; *q = 1; return 0; }\nint main(void) { pthread_t t; int *a = malloc(sizeof(int)); int *b = malloc(sizeof(int)); b = a; pthread_create(&t, 0, w, b); *a = 2; pthread_join(t, 0); return 0; }",
    ),
    // a site in a loop gives each thread a block, but threads 0 and 2 get the same one
    (
        "h2",
        "void *w(void *arg) { int *q = arg; *q += 1; return 0; }\nint main(void) { pthread_t t[4]; int *keep0 = 0; for (int i = 0; i < 4; i++) { int *b = malloc(sizeof(int)); *b = 0; if (i == 0) keep0 = b; pthread_create(&t[i], 0, w, i == 2 ? keep0 : b); } for (int i = 0; i < 4; i++) pthread_join(t[i], 0); return 0; }",
    ),
    // realloc: the block handed to the thread is the one main writes
    (
        "h3",
        "void *w(void *arg) { int *q = arg; *q = 1; return 0; }\nint main(void) { pthread_t t; int *a = malloc(sizeof(int)); int *b = realloc(a, 2 * sizeof(int)); pthread_create(&t, 0, w, b); b[0] = 2; pthread_join(t, 0); return 0; }",
    ),
    // a block freed and allocated again, the new one shared
    (
        "h4",
        "void *w(void *arg) { int *q = arg; *q = 1; return 0; }\nint main(void) { pthread_t t; int *a = malloc(sizeof(int)); *a = 0; free(a); a = malloc(sizeof(int)); pthread_create(&t, 0, w, a); *a = 2; pthread_join(t, 0); return 0; }",
    ),
    // the pointer stored in a global and read by the thread
    (
        "h5",
        "void *w(void *arg) { *g = 1; return 0; }\nint main(void) { pthread_t t; int *a = malloc(sizeof(int)); g = a; pthread_create(&t, 0, w, 0); *a = 2; pthread_join(t, 0); return 0; }",
    ),
    // pointer arithmetic from one block into another
    (
        "h6",
        "void *w(void *arg) { int *q = arg; *q = 1; return 0; }\nint main(void) { pthread_t t; char *a = malloc(8); char *b = malloc(8); long d = b - a; int *c = (int *)(a + d); pthread_create(&t, 0, w, b); *c = 2; pthread_join(t, 0); return 0; }",
    ),
    // the block handed to a function without a body, another hands it to the thread
    (
        "h7",
        "void *w(void *arg) { int *q = give(); *q = 1; return 0; }\nint main(void) { pthread_t t; int *a = malloc(sizeof(int)); keep(a); pthread_create(&t, 0, w, 0); *a = 2; pthread_join(t, 0); return 0; }",
    ),
    // a list node published under the lock, then written outside it by both
    (
        "h8",
        "void *w(void *arg) { pthread_mutex_lock(&m); struct node *n = head; pthread_mutex_unlock(&m); if (n) n->datum = 1; return 0; }\nint main(void) { pthread_t t; pthread_create(&t, 0, w, 0); struct node *n = malloc(sizeof(struct node)); n->datum = 0; n->next = 0; pthread_mutex_lock(&m); head = n; pthread_mutex_unlock(&m); n->datum = 2; pthread_join(t, 0); return 0; }",
    ),
    // a node linked into a node the thread is given: reached through the first
    (
        "h9",
        "void *w(void *arg) { struct node *h = arg; struct node *s = h->next; s->datum = 1; return 0; }\nint main(void) { pthread_t t; struct node *a = malloc(sizeof(struct node)); struct node *b = malloc(sizeof(struct node)); a->next = b; pthread_create(&t, 0, w, a); b->datum = 2; pthread_join(t, 0); return 0; }",
    ),
    // a helper's site, published by the thread and written by main
    (
        "h10",
        "int *make(void) { int *p = malloc(sizeof(int)); return p; }\nvoid *w(void *arg) { int *q = make(); pthread_mutex_lock(&m); g = q; pthread_mutex_unlock(&m); *q = 1; return 0; }\nint main(void) { pthread_t t; pthread_create(&t, 0, w, 0); pthread_mutex_lock(&m); int *r = g; pthread_mutex_unlock(&m); if (r) *r = 2; pthread_join(t, 0); return 0; }",
    ),
    // the address through an integer global
    (
        "h11",
        "void *w(void *arg) { int *q = (int *)cell; if (q) *q = 1; return 0; }\nint main(void) { pthread_t t; int *a = malloc(sizeof(int)); cell = (long)a; pthread_create(&t, 0, w, 0); *a = 2; pthread_join(t, 0); return 0; }",
    ),
    // the pointer copied out of a block by memcpy
    (
        "h12",
        "void *w(void *arg) { int *q; memcpy(&q, arg, sizeof q); *q = 1; return 0; }\nint main(void) { pthread_t t; int *a = malloc(sizeof(int)); int **box = malloc(sizeof(int *)); *box = a; pthread_create(&t, 0, w, box); *a = 2; pthread_join(t, 0); return 0; }",
    ),
    // a thread-local pointer whose address is handed to the thread
    (
        "h13",
        "__thread int *mine;\nvoid *w(void *arg) { int **pp = arg; **pp = 1; return 0; }\nint main(void) { pthread_t t; mine = malloc(sizeof(int)); pthread_create(&t, 0, w, &mine); *mine = 2; pthread_join(t, 0); return 0; }",
    ),
    // the block in a member of a struct on main's stack the thread is given
    (
        "h14",
        "struct box { int *p; };\nvoid *w(void *arg) { struct box *b = arg; *b->p = 1; return 0; }\nint main(void) { pthread_t t; struct box bx; bx.p = malloc(sizeof(int)); pthread_create(&t, 0, w, &bx); *bx.p = 2; pthread_join(t, 0); return 0; }",
    ),
    // the block handed on through a call through a function pointer
    (
        "h15",
        "void set(int *p) { *p = 1; }\nvoid (*fp)(int *) = set;\nvoid *w(void *arg) { fp(arg); return 0; }\nint main(void) { pthread_t t; int *a = malloc(sizeof(int)); pthread_create(&t, 0, w, a); *a = 2; pthread_join(t, 0); return 0; }",
    ),
    // allocated through an out-parameter
    (
        "h16",
        "void alloc(int **out) { *out = malloc(sizeof(int)); }\nvoid *w(void *arg) { int *q = arg; *q = 1; return 0; }\nint main(void) { pthread_t t; int *a; alloc(&a); pthread_create(&t, 0, w, a); *a = 2; pthread_join(t, 0); return 0; }",
    ),
    // each thread allocates in a loop and publishes one block; every thread writes
    // the published one
    (
        "h17",
        "void *w(void *arg) { for (int i = 0; i < 2; i++) { int *p = malloc(sizeof(int)); *p = i; if (i == 1) { pthread_mutex_lock(&m); g = p; pthread_mutex_unlock(&m); } } pthread_mutex_lock(&m); int *q = g; pthread_mutex_unlock(&m); if (q) *q = 5; return 0; }\nint main(void) { pthread_t t[2]; for (int i = 0; i < 2; i++) pthread_create(&t[i], 0, w, 0); for (int i = 0; i < 2; i++) pthread_join(t[i], 0); return 0; }",
    ),
    // the thread's result: a block it keeps writing through a global copy
    (
        "h18",
        "void *w(void *arg) { int *a = malloc(sizeof(int)); *a = 0; return a; }\nvoid *v(void *arg) { int *q = arg; *q = 1; return 0; }\nint main(void) { pthread_t t, u; void *r; pthread_create(&t, 0, w, 0); pthread_join(t, &r); pthread_create(&u, 0, v, r); *(int *)r = 2; pthread_join(u, 0); return 0; }",
    ),
    // a pointer written to a pipe and read back by the thread
    (
        "h19",
        "#include <unistd.h>\nint fds[2];\nvoid *w(void *arg) { int *q; if (read(fds[0], &q, sizeof q) == sizeof q) *q = 1; return 0; }\nint main(void) { pthread_t t; pipe(fds); int *a = malloc(sizeof(int)); write(fds[1], &a, sizeof a); pthread_create(&t, 0, w, 0); *a = 2; pthread_join(t, 0); return 0; }",
    ),
    // a private-looking block stored through an unknown pointer
    (
        "h20",
        "void *w(void *arg) { int *q = *(int **)give(); *q = 1; return 0; }\nint main(void) { pthread_t t; int *a = malloc(sizeof(int)); int **slot = (int **)give(); *slot = a; pthread_create(&t, 0, w, 0); *a = 2; pthread_join(t, 0); return 0; }",
    ),
];

#[test]
fn no_racy_heap_program_is_proved() {
    assert_none_proved_with_main(PRELUDE, MAIN, RACY_HEAP);
}

#[test]
fn allocation_sites_prove_a_race_free_program() {
    let body = r#"struct node { int datum; struct node *next; };
struct node *list;
void *w(void *arg) {
  int *scratch = malloc(4 * sizeof(int));
  for (int i = 0; i < 4; i++) scratch[i] = i;
  struct node *n = malloc(sizeof(struct node));
  pthread_mutex_lock(&m);
  n->datum = scratch[1];
  n->next = list;
  list = n;
  pthread_mutex_unlock(&m);
  free(scratch);
  return 0;
}
int main(void) {
  pthread_t t[4];
  int *stats = malloc(sizeof(int));
  *stats = 0;
  for (int i = 0; i < 4; i++) pthread_create(&t[i], 0, w, 0);
  *stats = 1;
  pthread_mutex_lock(&m);
  for (struct node *p = list; p; p = p->next) *stats += p->datum;
  pthread_mutex_unlock(&m);
  for (int i = 0; i < 4; i++) pthread_join(t[i], 0);
  return *stats;
}"#;
    let p = proof_of_source(body);
    assert!(p.proved, "{:#?}", ladr_report::proof::lines(&p));
    let sites = |rule: &str| {
        p.objects
            .iter()
            .filter(|o| o.object.starts_with("heap blocks allocated in") && o.rule == rule)
            .count()
    };
    // The scratch block and main's counter are their threads' own, the nodes locked.
    assert_eq!(
        (sites("one-thread"), sites("lock")),
        (2, 1),
        "{:#?}",
        ladr_report::proof::lines(&p)
    );
    // The twins: the scratch block handed to every thread, a node written unlocked.
    let shared = body
        .replace(
            "int *scratch = malloc(4 * sizeof(int));",
            "int *scratch = g;",
        )
        .replace(
            "int main(void) {",
            "int main(void) {\n  g = malloc(4 * sizeof(int));",
        );
    assert!(!proof_of_source(&shared).proved);
    let unlocked = body.replace("  free(scratch);", "  n->datum++;\n  free(scratch);");
    assert!(!proof_of_source(&unlocked).proved);
}
