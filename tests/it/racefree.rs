//! Tests of `racefree`: which objects it finds race-free, which accesses `race` still
//! instruments and how many statements stay visible, on the minimal fixtures of
//! `common::fixtures` and on small programs near each rule's limits (a case where the rule
//! must not apply beside one where it does). `tests/end_to_end` checks the same rules with
//! CBMC.

use crate::common;

/// The passes up to `race`: the race-free objects, the instrumented accesses (lvalue and
/// line) and each slot's number of visible statements.
fn summary(src: &str) -> String {
    let (p, map) = common::passes(common::PTHREAD_PRELUDE, src, 2, common::PassId::Race)
        .unwrap_or_else(|e| panic!("{e}\n--- input:\n{src}"));
    let mut free: Vec<&String> = p.vars.race_free().iter().collect();
    free.sort();
    let sites: Vec<String> = p
        .sites
        .iter()
        .skip(1)
        .map(|s| {
            let line = map.lookup(s.span.start).line;
            format!("{}@{line}{}", s.expr, if s.write { "w" } else { "r" })
        })
        .collect();
    let visible: Vec<u32> = p.code.iter().map(|c| c.size).collect();
    format!(
        "race-free: {free:?}\ninstrumented: {}\nvisible: {visible:?}\n",
        sites.join(" ")
    )
}

/// The items after `racefree`.
fn items(src: &str) -> String {
    let (p, _) = common::passes(common::PTHREAD_PRELUDE, src, 2, common::PassId::Racefree)
        .unwrap_or_else(|e| panic!("{e}\n--- input:\n{src}"));
    common::show_code(&p)
}

#[test]
fn fixtures() {
    use common::fixtures::*;
    insta::assert_snapshot!(
        "fixtures",
        [TWO_WRITERS, MUTEX, SHARED_IF, ATOMIC_SECTION]
            .map(summary)
            .join("\n")
    );
    insta::assert_snapshot!("mutex_items", items(MUTEX));
}

/// Rule 1: `main` alone before its first create and after joining every thread it created
/// (in loops: the unwound counter is followed), not after a thread created in one `if` and
/// joined in another, nor after joining a thread that created one of its own.
#[test]
fn main_alone() {
    let loops = r#"
int x; int y;
void *w(void *a) { y = 1; return 0; }
int main(void) {
  pthread_t t[2]; int i;
  x = 1;
  for (i = 0; i < 2; i++) pthread_create(&t[i], 0, w, 0);
  for (i = 0; i < 2; i++) pthread_join(t[i], 0);
  x = y;
  return 0;
}
"#;
    let conditional = r#"
int x; int y;
void *w(void *a) { x = 2; return 0; }
int main(void) {
  pthread_t t; int c;
  c = __VERIFIER_nondet_int();
  if (c) pthread_create(&t, 0, w, 0);
  if (!c) pthread_join(t, 0);
  x = 1;
  return 0;
}
"#;
    let nested = r#"
int x;
void *inner(void *a) { x = 2; return 0; }
void *outer(void *a) { pthread_t u; pthread_create(&u, 0, inner, 0); return 0; }
int main(void) {
  pthread_t t;
  pthread_create(&t, 0, outer, 0);
  pthread_join(t, 0);
  x = 1;
  return 0;
}
"#;
    insta::assert_snapshot!(
        "main_alone",
        [loops, conditional, nested].map(summary).join("\n")
    );
    insta::assert_snapshot!("main_alone_items", items(loops));
}

/// Rule 2: read-only objects (not one whose address is taken), objects of one thread (not
/// of one routine started twice), lock-protected objects (not with a trylock, a second
/// mutex or an unlock the thread may not hold).
#[test]
fn race_free_objects() {
    let read_only = r#"
int ro = 1; int rp = 2; int *p = &rp;
void *w(void *a) { int v; v = ro + rp; return 0; }
int main(void) {
  pthread_t t, u;
  pthread_create(&t, 0, w, 0);
  pthread_create(&u, 0, w, 0);
  return ro;
}
"#;
    let one_thread = r#"
int mine; int twice;
void *w(void *a) { mine = mine + 1; return 0; }
void *v(void *a) { twice = twice + 1; return 0; }
int main(void) {
  pthread_t t, u, s;
  pthread_create(&t, 0, w, 0);
  pthread_create(&u, 0, v, 0);
  pthread_create(&s, 0, v, 0);
  return 0;
}
"#;
    let locks = r#"
int a; int b; int c; int d;
pthread_mutex_t m; pthread_mutex_t n;
void *w(void *x) {
  pthread_mutex_lock(&m); a = 1; b = 1; c = 1; pthread_mutex_unlock(&m);
  if (pthread_mutex_trylock(&n) == 0) { d = 1; pthread_mutex_unlock(&n); }
  return 0;
}
int main(void) {
  pthread_t t;
  pthread_create(&t, 0, w, 0);
  pthread_mutex_lock(&m); a = 2; pthread_mutex_unlock(&m);
  pthread_mutex_lock(&n); b = 2; pthread_mutex_unlock(&n);
  c = 2;
  pthread_mutex_lock(&n); d = 2; pthread_mutex_unlock(&n);
  return 0;
}
"#;
    insta::assert_snapshot!(
        "race_free_objects",
        [read_only, one_thread, locks].map(summary).join("\n")
    );
}

/// Rule 2 with mutexes inside objects: `p = &x[i]` read only to lock `&p->m` takes `x`
/// nowhere, but `q = &y[i]` also read as `q->v` does; unlocking `&p->m` leaves `g` held;
/// `&z[0].m` as a lock argument is no escape of `z`, but `z[0].v` written under `z[0].m`
/// alone is not under `g`.
#[test]
fn mutexes_inside_objects() {
    let src = r#"
struct s { int v; pthread_mutex_t m; } x[2], y[2], z[2];
pthread_mutex_t g;
void *w(void *a) {
  int i = (int)(long)a;
  struct s *p = &x[i];
  struct s *q = &y[i];
  pthread_mutex_lock(&g);
  pthread_mutex_lock(&p->m); pthread_mutex_unlock(&p->m);
  x[1].v = 1; y[1].v = q->v; z[1].v = 1;
  pthread_mutex_unlock(&g);
  pthread_mutex_lock(&z[0].m); z[0].v = 2; pthread_mutex_unlock(&z[0].m);
  return 0;
}
int main(void) {
  pthread_t t;
  pthread_create(&t, 0, w, (void *)1);
  pthread_mutex_lock(&g); x[0].v = 3; y[0].v = 3; z[1].v = 3; pthread_mutex_unlock(&g);
  return 0;
}
"#;
    insta::assert_snapshot!("mutexes_inside_objects", summary(src));
}
