//! The proof's member paths through pointers (`prove/objects.rs`, `prove/heap.rs`'s
//! member moves): racy programs built to fool the rule are never proved, and the rule
//! proves what it is for.

use crate::prove::{assert_none_proved_with_main, proof_of_source};

/// A node whose `datum` `good` writes holding `ma` through a pointer to `gnode` alone.
const NODES: &str = r#"extern int __VERIFIER_nondet_int(void);
pthread_mutex_t ma = PTHREAD_MUTEX_INITIALIZER, mb = PTHREAD_MUTEX_INITIALIZER;
struct node { int datum; struct node *next; int count; };
struct alt { int first; int second; };
struct box { long addr; int pad; };
struct hold { struct node *p; };
struct node gnode;
void *good(void *arg) { struct node *p = &gnode; pthread_mutex_lock(&ma); p->datum++; pthread_mutex_unlock(&ma); return 0; }
"#;

/// `main` starting `good` and `bad` (unless the program has its own).
const MAIN: &str = "int main(void) { pthread_t t, u; pthread_create(&t, 0, good, 0); pthread_create(&u, 0, bad, 0); return 0; }";

/// Racy threads `bad` (with [`NODES`] and [`MAIN`]): each writes `gnode.datum` (or all
/// of `gnode`) holding `mb`, through a member of another name or a whole access.
const RACY_FIELDS: &[(&str, &str)] = &[
    // a pointer of another struct type at the node's start: `first` is `datum`
    (
        "f1",
        "void *bad(void *arg) { struct alt *q = (struct alt *)&gnode; pthread_mutex_lock(&mb); q->first = 1; pthread_mutex_unlock(&mb); return 0; }",
    ),
    // a block-scope struct of the same tag: its `count` is where `datum` is
    (
        "f2",
        "void *bad(void *arg) { struct node { int count; int datum; }; struct node *q = (struct node *)&gnode; pthread_mutex_lock(&mb); q->count = 1; pthread_mutex_unlock(&mb); return 0; }",
    ),
    // a pointer moved so that its `count` is `gnode.datum`
    (
        "f3",
        "void *bad(void *arg) { struct node *q = (struct node *)((char *)&gnode - __builtin_offsetof(struct node, count)); pthread_mutex_lock(&mb); q->count = 1; pthread_mutex_unlock(&mb); return 0; }",
    ),
    // the whole node cleared through the pointer
    (
        "f4",
        "void *bad(void *arg) { struct node *q = &gnode; pthread_mutex_lock(&mb); memset(q, 0, sizeof *q); pthread_mutex_unlock(&mb); return 0; }",
    ),
    // a character pointer writing its first byte
    (
        "f5",
        "void *bad(void *arg) { char *c = (char *)&gnode; pthread_mutex_lock(&mb); c[0] = 1; pthread_mutex_unlock(&mb); return 0; }",
    ),
    // the whole node assigned through the pointer
    (
        "f6",
        "void *bad(void *arg) { struct node *q = &gnode; struct node t = { 0, 0, 0 }; pthread_mutex_lock(&mb); *q = t; pthread_mutex_unlock(&mb); return 0; }",
    ),
    // the member's address handed to a function that writes through it
    (
        "f7",
        "void set(int *ip) { *ip = 1; }\nvoid *bad(void *arg) { struct node *q = &gnode; pthread_mutex_lock(&mb); set(&q->datum); pthread_mutex_unlock(&mb); return 0; }",
    ),
    // the same member under another mutex, as `(*q).datum`
    (
        "f8",
        "void *bad(void *arg) { struct node *q = &gnode; pthread_mutex_lock(&mb); (*q).datum = 2; pthread_mutex_unlock(&mb); return 0; }",
    ),
    // the node's address kept in an integer member, moved there, used as a node
    (
        "f9",
        "struct box bx;\nvoid *bad(void *arg) { struct box *b = &bx; b->addr = (long)&gnode; b->addr -= __builtin_offsetof(struct node, count); struct node *q = (struct node *)b->addr; pthread_mutex_lock(&mb); q->count = 1; pthread_mutex_unlock(&mb); return 0; }",
    ),
    // the node's address copied as bytes into an integer member, moved, copied back
    (
        "f10",
        "struct box bx; struct hold h;\nvoid *bad(void *arg) { h.p = &gnode; memcpy(&bx, &h, sizeof h); bx.addr -= __builtin_offsetof(struct node, count); memcpy(&h, &bx, sizeof h); struct node *q = h.p; pthread_mutex_lock(&mb); q->count = 1; pthread_mutex_unlock(&mb); return 0; }",
    ),
    // an integer member moved through a pointer of its type at a holder of the address
    (
        "f11",
        "struct hold h;\nvoid *bad(void *arg) { h.p = &gnode; struct box *b = (struct box *)&h; b->addr -= __builtin_offsetof(struct node, count); struct node *q = h.p; pthread_mutex_lock(&mb); q->count = 1; pthread_mutex_unlock(&mb); return 0; }",
    ),
    // a pointer that may point to another struct's start (an `alt` whose `second` it writes)
    (
        "f12",
        "struct alt galt;\nvoid *bad(void *arg) { struct alt *q = __VERIFIER_nondet_int() ? &galt : (struct alt *)&gnode; pthread_mutex_lock(&mb); q->first = 1; pthread_mutex_unlock(&mb); return 0; }",
    ),
    // the pointer moved by `-=` on an `int *` so that its `count` is `datum` (LP64)
    (
        "f13",
        "void *bad(void *arg) { int *ip = (int *)&gnode; ip -= 4; struct node *q = (struct node *)ip; pthread_mutex_lock(&mb); q->count = 3; pthread_mutex_unlock(&mb); return 0; }",
    ),
    // a union at the node's start: its other member is `datum`
    (
        "f14",
        "union pun { struct node n; int raw; };\nvoid *bad(void *arg) { union pun *q = (union pun *)&gnode; pthread_mutex_lock(&mb); q->raw = 1; pthread_mutex_unlock(&mb); return 0; }",
    ),
];

/// Racy programs with their own `main`: heap blocks, unions, arrays of structs.
const RACY_OWN_MAIN: &[(&str, &str)] = &[
    // one site reached at two struct types: `alt`'s `first` is `node`'s `datum`
    (
        "h1",
        "struct node *hp;\nvoid *w(void *a) { pthread_mutex_lock(&ma); hp->datum++; pthread_mutex_unlock(&ma); return 0; }\nvoid *bad(void *a) { struct alt *q = (struct alt *)hp; q->first = 3; return 0; }\nint main(void) { hp = malloc(sizeof(struct node)); pthread_t t, u; pthread_create(&t, 0, w, 0); pthread_create(&u, 0, bad, 0); return 0; }",
    ),
    // a pointer into a block off its start
    (
        "h2",
        "struct node *hp;\nvoid *w(void *a) { pthread_mutex_lock(&ma); hp->datum++; pthread_mutex_unlock(&ma); return 0; }\nvoid *bad(void *a) { struct node *q = (struct node *)((char *)hp - __builtin_offsetof(struct node, count)); q->count = 3; return 0; }\nint main(void) { hp = malloc(sizeof(struct node)); pthread_t t, u; pthread_create(&t, 0, w, 0); pthread_create(&u, 0, bad, 0); return 0; }",
    ),
    // an array of nodes: the second element reached by an index and by `q + 1`
    (
        "h3",
        "struct node garr[2];\nvoid *w(void *a) { struct node *p = garr; pthread_mutex_lock(&ma); p[1].datum = 1; pthread_mutex_unlock(&ma); return 0; }\nvoid *bad(void *a) { struct node *q = garr; (q + 1)->datum = 2; return 0; }\nint main(void) { pthread_t t, u; pthread_create(&t, 0, w, 0); pthread_create(&u, 0, bad, 0); return 0; }",
    ),
    // two members of a union through pointers
    (
        "h4",
        "union pun { int a; int b; } gu;\nvoid *w(void *a) { union pun *p = &gu; pthread_mutex_lock(&ma); p->a = 1; pthread_mutex_unlock(&ma); return 0; }\nvoid *bad(void *a) { union pun *q = &gu; q->b = 2; return 0; }\nint main(void) { pthread_t t, u; pthread_create(&t, 0, w, 0); pthread_create(&u, 0, bad, 0); return 0; }",
    ),
    // one element of a member array through two pointers
    (
        "h5",
        "struct arrs { int a[4]; int b; } ga;\nvoid *w(void *x) { struct arrs *p = &ga; pthread_mutex_lock(&ma); p->a[3] = 1; pthread_mutex_unlock(&ma); return 0; }\nvoid *bad(void *x) { struct arrs *q = &ga; int i = __VERIFIER_nondet_int(); q->a[i] = 2; return 0; }\nint main(void) { pthread_t t, u; pthread_create(&t, 0, w, 0); pthread_create(&u, 0, bad, 0); return 0; }",
    ),
    // two bit-fields of one memory location
    (
        "h6",
        "struct bits { int lo : 4; int hi : 4; } gb;\nvoid *w(void *x) { struct bits *p = &gb; pthread_mutex_lock(&ma); p->lo = 1; pthread_mutex_unlock(&ma); return 0; }\nvoid *bad(void *x) { struct bits *q = &gb; q->hi = 2; return 0; }\nint main(void) { pthread_t t, u; pthread_create(&t, 0, w, 0); pthread_create(&u, 0, bad, 0); return 0; }",
    ),
];

#[test]
fn racy_programs_built_to_fool_member_paths_are_not_proved() {
    assert_none_proved_with_main(NODES, MAIN, RACY_FIELDS);
    assert_none_proved_with_main(NODES, MAIN, RACY_OWN_MAIN);
}

/// The control: `bad` writing `count` through a pointer holding another mutex is proved,
/// so the racy programs above are unproved for what they change.
#[test]
fn members_apart_through_pointers_prove_the_node() {
    let bad = "void *bad(void *arg) { struct node *q = &gnode; pthread_mutex_lock(&mb); q->count = 1; (*q).next = 0; pthread_mutex_unlock(&mb); return 0; }";
    let p = proof_of_source(&format!("{NODES}{bad}\n{MAIN}"));
    assert!(p.proved, "{:#?}", ladr_report::proof::lines(&p));
}

/// The rule's forms: heap blocks of one site reached through parameters, a named
/// member against a pointer's, nested members and constant indices of a member array,
/// an integer member moved under its own lock.
#[test]
fn member_paths_through_pointers_prove_a_race_free_program() {
    let body = r#"extern int __VERIFIER_nondet_int(void);
pthread_mutex_t ma = PTHREAD_MUTEX_INITIALIZER, mb = PTHREAD_MUTEX_INITIALIZER;
struct inner { int x; int y; };
struct rec { int datum; struct rec *next; struct inner in; int a[4]; };
struct rec grec;
struct rec *head;
void bump(struct rec *r) { pthread_mutex_lock(&ma); r->datum++; r->in.x += 2; r->a[1] = 7; pthread_mutex_unlock(&ma); }
void link(struct rec *r) { pthread_mutex_lock(&mb); r->next = head; head->in.y = 1; (*r).a[2] = 5; pthread_mutex_unlock(&mb); }
void *w(void *arg) {
  bump(head);
  link(head);
  struct rec *p = &grec;
  pthread_mutex_lock(&ma); p->datum = 3; pthread_mutex_unlock(&ma);
  pthread_mutex_lock(&mb); grec.next = 0; pthread_mutex_unlock(&mb);
  return 0;
}
int main(void) {
  head = malloc(sizeof(struct rec));
  head->next = 0;
  pthread_t t[2];
  for (int i = 0; i < 2; i++) pthread_create(&t[i], 0, w, 0);
  for (int i = 0; i < 2; i++) pthread_join(t[i], 0);
  return 0;
}"#;
    let p = proof_of_source(body);
    assert!(p.proved, "{:#?}", ladr_report::proof::lines(&p));
}
