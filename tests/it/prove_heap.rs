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

/// Racy programs built to fool the rule of blocks not yet published (with [`PRELUDE`]):
/// the block reaches the other thread before the access.
/// Racy programs built to fool the rule of blocks not yet published (with [`PRELUDE`]):
/// the block reaches the other thread (through `g` under the lock, so that the block is
/// the only object that races) before the access.
const RACY_FRESH: &[(&str, &str)] = &[
    // published through a copy, written through the original
    (
        "f1",
        "void *w(void *arg) { pthread_mutex_lock(&m); int *q = g; pthread_mutex_unlock(&m); if (q) *q = 1; return 0; }\nint main(void) { pthread_t t; pthread_create(&t, 0, w, 0); int *p = malloc(sizeof(int)); int *q = p; pthread_mutex_lock(&m); g = q; pthread_mutex_unlock(&m); *p = 2; pthread_join(t, 0); return 0; }",
    ),
    // published by a callee
    (
        "f2",
        "void publish(int *x) { pthread_mutex_lock(&m); g = x; pthread_mutex_unlock(&m); }\nvoid *w(void *arg) { pthread_mutex_lock(&m); int *q = g; pthread_mutex_unlock(&m); if (q) *q = 1; return 0; }\nint main(void) { pthread_t t; pthread_create(&t, 0, w, 0); int *p = malloc(sizeof(int)); publish(p); *p = 2; pthread_join(t, 0); return 0; }",
    ),
    // published by a callee's callee
    (
        "f3",
        "void publish(int *x) { pthread_mutex_lock(&m); g = x; pthread_mutex_unlock(&m); }\nvoid hand(int *x) { publish(x); }\nvoid *w(void *arg) { pthread_mutex_lock(&m); int *q = g; pthread_mutex_unlock(&m); if (q) *q = 1; return 0; }\nint main(void) { pthread_t t; pthread_create(&t, 0, w, 0); int *p = malloc(sizeof(int)); hand(p); *p = 2; pthread_join(t, 0); return 0; }",
    ),
    // an address inside the block published
    (
        "f4",
        "void *w(void *arg) { pthread_mutex_lock(&m); int *q = g; pthread_mutex_unlock(&m); if (q) *q = 1; return 0; }\nint main(void) { pthread_t t; pthread_create(&t, 0, w, 0); struct node *n = malloc(sizeof(struct node)); int *d = &n->datum; pthread_mutex_lock(&m); g = d; pthread_mutex_unlock(&m); n->datum = 2; pthread_join(t, 0); return 0; }",
    ),
    // published in a loop, written after it
    (
        "f5",
        "void *w(void *arg) { pthread_mutex_lock(&m); int *q = g; pthread_mutex_unlock(&m); if (q) *q = 1; return 0; }\nint main(void) { pthread_t t; pthread_create(&t, 0, w, 0); int *p = 0; for (int i = 0; i < 2; i++) { p = malloc(sizeof(int)); pthread_mutex_lock(&m); g = p; pthread_mutex_unlock(&m); } *p = 2; pthread_join(t, 0); return 0; }",
    ),
    // a goto back over the publication
    (
        "f6",
        "void *w(void *arg) { pthread_mutex_lock(&m); int *q = g; pthread_mutex_unlock(&m); if (q) *q = 1; return 0; }\nint main(void) { pthread_t t; pthread_create(&t, 0, w, 0); int *p = malloc(sizeof(int)); int k = 0;\nagain: *p = 2; pthread_mutex_lock(&m); g = p; pthread_mutex_unlock(&m); if (k++ < 2) goto again; pthread_join(t, 0); return 0; }",
    ),
    // a helper made fresh by one call, given a published block by two threads
    (
        "f7",
        "void init(int *x) { *x = 0; }\nvoid *v(void *arg) { pthread_mutex_lock(&m); int *q = g; pthread_mutex_unlock(&m); if (q) init(q); return 0; }\nint main(void) { pthread_t t, u; g = malloc(sizeof(int)); int *p = malloc(sizeof(int)); init(p); pthread_create(&t, 0, v, 0); pthread_create(&u, 0, v, 0); pthread_join(t, 0); pthread_join(u, 0); return 0; }",
    ),
    // realloc may give back the published block
    (
        "f8",
        "void *w(void *arg) { pthread_mutex_lock(&m); int *q = g; pthread_mutex_unlock(&m); if (q) *q = 1; return 0; }\nint main(void) { pthread_t t; int *p = malloc(sizeof(int)); g = p; pthread_create(&t, 0, w, 0); int *r = realloc(p, sizeof(int)); if (r) *r = 2; pthread_join(t, 0); return 0; }",
    ),
    // the local's address taken and handed over
    (
        "f9",
        "int **gp;\nvoid *v(void *arg) { pthread_mutex_lock(&m); int **pp = gp; pthread_mutex_unlock(&m); if (pp && *pp) **pp = 1; return 0; }\nint main(void) { pthread_t t; pthread_create(&t, 0, v, 0); int *p = malloc(sizeof(int)); pthread_mutex_lock(&m); gp = &p; pthread_mutex_unlock(&m); *p = 2; pthread_join(t, 0); return 0; }",
    ),
    // handed to the thread it creates
    (
        "f10",
        "void *v(void *arg) { int *q = arg; *q = 1; return 0; }\nint main(void) { pthread_t t; int *p = malloc(sizeof(int)); pthread_create(&t, 0, v, p); *p = 2; pthread_join(t, 0); return 0; }",
    ),
    // stored through a callee's out-parameter
    (
        "f11",
        "void put(int **out, int *x) { pthread_mutex_lock(&m); *out = x; pthread_mutex_unlock(&m); }\nvoid *w(void *arg) { pthread_mutex_lock(&m); int *q = g; pthread_mutex_unlock(&m); if (q) *q = 1; return 0; }\nint main(void) { pthread_t t; pthread_create(&t, 0, w, 0); int *p = malloc(sizeof(int)); put(&g, p); *p = 2; pthread_join(t, 0); return 0; }",
    ),
    // a helper also called through a function pointer with a published block
    (
        "f12",
        "void init(int *x) { *x = 0; }\nvoid (*fp)(int *) = init;\nvoid *v(void *arg) { fp(g); return 0; }\nint main(void) { pthread_t t; g = malloc(sizeof(int)); pthread_create(&t, 0, v, 0); int *p = malloc(sizeof(int)); init(p); init(g); pthread_join(t, 0); return 0; }",
    ),
    // linked into a published node
    (
        "f13",
        "void *v(void *arg) { pthread_mutex_lock(&m); struct node *h = head; struct node *s = h ? h->next : 0; pthread_mutex_unlock(&m); if (s) s->datum = 1; return 0; }\nint main(void) { pthread_t t; head = malloc(sizeof(struct node)); head->next = 0; pthread_create(&t, 0, v, 0); struct node *n = malloc(sizeof(struct node)); pthread_mutex_lock(&m); head->next = n; pthread_mutex_unlock(&m); n->datum = 2; pthread_join(t, 0); return 0; }",
    ),
    // compared, then published by a library function that keeps it
    (
        "f14",
        "extern void stash(int *p);\nextern int *fetch(void);\nvoid *v(void *arg) { int *q = fetch(); if (q) *q = 1; return 0; }\nint main(void) { pthread_t t; pthread_create(&t, 0, v, 0); int *p = malloc(sizeof(int)); stash(p); *p = 2; pthread_join(t, 0); return 0; }",
    ),
];

#[test]
fn no_racy_heap_program_is_proved() {
    assert_none_proved_with_main(PRELUDE, MAIN, RACY_HEAP);
}

#[test]
fn no_block_published_before_its_access_is_proved() {
    assert_none_proved_with_main(PRELUDE, MAIN, RACY_FRESH);
}

#[test]
fn fresh_blocks_prove_an_initialisation_before_publication() {
    // goblint's 09-regions_02: a node initialised by a helper, then linked under the lock.
    let body = r#"struct node { int datum; struct node *next; };
struct node *list;
void init(struct node *n, int v) { n->datum = v; n->next = 0; }
void *w(void *arg) {
  struct node *n = malloc(sizeof(struct node));
  init(n, 7);
  pthread_mutex_lock(&m);
  n->next = list;
  list = n;
  pthread_mutex_unlock(&m);
  return 0;
}
int main(void) {
  pthread_t t[2];
  list = malloc(sizeof(struct node));
  init(list, 0);
  for (int i = 0; i < 2; i++) pthread_create(&t[i], 0, w, 0);
  pthread_mutex_lock(&m);
  int sum = 0;
  for (struct node *p = list; p; p = p->next) sum += p->datum;
  pthread_mutex_unlock(&m);
  return sum;
}"#;
    let p = proof_of_source(body);
    assert!(p.proved, "{:#?}", ladr_report::proof::lines(&p));
    // The twins: initialised after it is linked; a helper that links it, then writes.
    let late = body.replace(
        "  init(n, 7);\n  pthread_mutex_lock(&m);\n  n->next = list;\n  list = n;\n  pthread_mutex_unlock(&m);",
        "  pthread_mutex_lock(&m);\n  n->next = list;\n  list = n;\n  pthread_mutex_unlock(&m);\n  init(n, 7);",
    );
    assert_ne!(late, body);
    assert!(!proof_of_source(&late).proved);
    let keeps = body.replace(
        "{ n->datum = v; n->next = 0; }",
        "{ pthread_mutex_lock(&m); list = n; pthread_mutex_unlock(&m); n->datum = v; n->next = 0; }",
    );
    assert_ne!(keeps, body);
    assert!(!proof_of_source(&keeps).proved);
}

#[test]
fn allocation_sites_prove_a_race_free_program() {
    let body = r#"struct node { int datum; struct node *next; };
struct node *list;
void *w(void *arg) {
  int *scratch = malloc(4 * sizeof(int));
  if (!scratch) return 0;
  for (int i = 0; i < 4; i++) scratch[i] = i;
  struct node *n = malloc(sizeof(struct node));
  pthread_mutex_lock(&m);
  n->datum = scratch[1];
  n->next = list;
  list = n;
  n->datum++;
  pthread_mutex_unlock(&m);
  free(scratch);
  return 0;
}
int main(void) {
  pthread_t t[4];
  int *stats = malloc(sizeof(int));
  *stats = 0;
  for (int i = 0; i < 4; i++) pthread_create(&t[i], 0, w, 0);
  if (stats) *stats = 1;
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
    let unlocked = body.replace("  free(scratch);", "  n->datum--;\n  free(scratch);");
    assert!(!proof_of_source(&unlocked).proved);
}
