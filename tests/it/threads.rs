//! Snapshot tests of `threads` (after normalise, inline, unwind). The programs declare the
//! few pthread types and functions they use in `common::PTHREAD_PRELUDE` (a stand-in for `<pthread.h>`);
//! the snapshots leave out the prelude and the pthread model, which never change.

use crate::common;

use common::PTHREAD_PRELUDE as PRELUDE;

fn check(src: &str, unwind: u32) -> String {
    common::show_threads(common::threads(PRELUDE, src, unwind))
}

#[test]
fn creation_in_a_loop() {
    insta::assert_snapshot!(check(
        r#"
int g;
void *w(void *a) { g = 1; return 0; }
int main(void) {
  pthread_t t[2];
  int i;
  i = 0;
  while (i < 2) { pthread_create(&t[i], 0, w, 0); i = i + 1; }
  return 0;
}
"#,
        2
    ));
}

#[test]
fn one_routine_created_twice() {
    insta::assert_snapshot!(check(
        r#"
int g;
void *w(void *a) { int v; v = g; g = v + 1; return a; }
int main(void) {
  pthread_t x, y;
  pthread_create(&x, 0, w, 0);
  pthread_create(&y, 0, w, (void *)1);
  return 0;
}
"#,
        2
    ));
}

#[test]
fn address_of_a_local_of_main_passed_to_a_thread() {
    insta::assert_snapshot!(check(
        r#"
void *w(void *a) { int *p; p = a; *p = 2; return 0; }
int main(void) {
  pthread_t t;
  int local;
  local = 1;
  pthread_create(&t, 0, w, &local);
  pthread_join(t, 0);
  return local;
}
"#,
        2
    ));
}

#[test]
fn a_thread_creates_a_thread() {
    insta::assert_snapshot!(check(
        r#"
int g;
void *inner(void *a) { g = 2; return 0; }
void *outer(void *a) { pthread_t t; pthread_create(&t, 0, inner, a); g = 1; return 0; }
int main(void) {
  pthread_t t;
  pthread_create(&t, 0, outer, 0);
  return 0;
}
"#,
        2
    ));
}

#[test]
fn recursive_creation_is_cut() {
    insta::assert_snapshot!(check(
        r#"
void *spawn(void *a) { pthread_t t; pthread_create(&t, 0, spawn, a); return 0; }
int main(void) {
  pthread_t t;
  pthread_create(&t, 0, spawn, 0);
  return 0;
}
"#,
        1
    ));
}

#[test]
fn join_reads_the_exit_value() {
    insta::assert_snapshot!(check(
        r#"
int g;
void *early(void *a) { if (g) pthread_exit((void *)7); return (void *)8; }
int main(void) {
  pthread_t t;
  void *r;
  pthread_create(&t, 0, early, 0);
  pthread_join(t, &r);
  if (r == (void *)7) pthread_exit(0);
  return 0;
}
"#,
        2
    ));
}

#[test]
fn join_through_a_pointer_and_detach() {
    insta::assert_snapshot!(check(
        r#"
int pthread_detach(pthread_t t);
pthread_t other;
void *w(void *a) { return a; }
int main(void) {
  pthread_t t;
  void *r;
  void **pp;
  pp = &r;
  pthread_create(&t, 0, w, 0);
  pthread_create(&other, 0, w, 0);
  pthread_join(t, pp);
  pthread_detach(other);
  return 0;
}
"#,
        2
    ));
}

#[test]
fn mutex_and_condition_variable() {
    insta::assert_snapshot!(check(
        r#"
pthread_mutex_t m;
pthread_cond_t c;
int ready;
void *w(void *a) {
  pthread_mutex_lock(&m);
  ready = 1;
  pthread_cond_signal(&c);
  pthread_mutex_unlock(&m);
  return 0;
}
int main(void) {
  pthread_t t;
  pthread_create(&t, 0, w, 0);
  pthread_mutex_lock(&m);
  if (!ready) pthread_cond_wait(&c, &m);
  pthread_mutex_unlock(&m);
  return pthread_self() == t;
}
"#,
        2
    ));
}

#[test]
fn static_local_is_one_object_for_all_slots() {
    insta::assert_snapshot!(check(
        r#"
int bump(void) { static int calls = 1; calls = calls + 1; return calls; }
void *w(void *a) { static int count; int v; count = count + 1; v = bump(); return 0; }
int main(void) {
  pthread_t x, y;
  int v;
  pthread_create(&x, 0, w, 0);
  pthread_create(&y, 0, w, 0);
  v = bump();
  return 0;
}
"#,
        2
    ));
}

#[test]
fn thread_local_globals_one_copy_per_slot() {
    insta::assert_snapshot!(check(
        r#"
_Thread_local int counter = 3;
extern _Thread_local int *mine;
__thread int unused;
int plain;
int size = sizeof(counter);
void *w(void *a) { counter = counter + 1; mine = &counter; plain = *mine; return 0; }
int main(void) {
  pthread_t x, y;
  pthread_create(&x, 0, w, 0);
  pthread_create(&y, 0, w, 0);
  counter = 0;
  return 0;
}
"#,
        2
    ));
}

#[test]
fn thread_local_static_local() {
    insta::assert_snapshot!(check(
        r#"
void *w(void *a) { static _Thread_local int n; n = n + 1; return 0; }
int main(void) {
  pthread_t x, y;
  pthread_create(&x, 0, w, 0);
  pthread_create(&y, 0, w, 0);
  return 0;
}
"#,
        2
    ));
}

#[test]
fn thread_specific_data() {
    insta::assert_snapshot!(check(
        r#"
pthread_key_t key;
void *w(void *a) {
  int *p;
  pthread_setspecific(key, a);
  p = pthread_getspecific(key);
  *p = 1;
  return 0;
}
int main(void) {
  pthread_t t;
  int r;
  r = pthread_key_create(&key, 0);
  pthread_create(&t, 0, w, malloc(sizeof(int)));
  pthread_join(t, 0);
  pthread_key_delete(key);
  return r;
}
"#,
        2
    ));
}

#[test]
fn key_destructor_through_a_pointer_is_an_error() {
    insta::assert_snapshot!(check(
        r#"
pthread_key_t key;
struct { void (*release)(void *); } ops;
int main(void) { pthread_key_create(&key, ops.release); return 0; }
"#,
        2
    ));
}

/// `pthread_cancel` is a request for the slot (`model/cancel.c`); the cancellation point
/// `pthread_testcancel` checks it and exits with `PTHREAD_CANCELED` (issue 27).
#[test]
fn cancel_is_a_request_acted_on_at_cancellation_points() {
    insta::assert_snapshot!(check(
        r#"
void *w(void *a) { pthread_testcancel(); return 0; }
int main(void) { pthread_t t; pthread_create(&t, 0, w, 0); pthread_cancel(t); return 0; }
"#,
        2
    ));
}

#[test]
fn main_gets_its_arguments_from_the_model() {
    insta::assert_snapshot!(check(
        r#"
int g;
int main(int argc, char **argv) {
  if (argc > 1) g = argv[1][0];
  return 0;
}
"#,
        2
    ));
}

/// Asserts that `src`'s `malloc` keeps its size: `want` is the call, and no fixed-size
/// model (no `heap-size` cut) replaces it.
fn assert_malloc_size(src: &str, want: &str) {
    let out = check(src, 2);
    assert!(out.contains(want), "{out}");
    assert!(!out.contains("__ladr_malloc"), "{out}");
}

#[test]
fn malloc_of_a_size_assigned_once_keeps_its_size() {
    assert_malloc_size(
        r#"
struct big { int a[300]; };
struct big *p;
int main() {
  unsigned long size = sizeof(struct big);
  p = malloc(size);
  return 0;
}
"#,
        "malloc((__typeof__(__ladr_1_size))(sizeof(struct big)))",
    );
}

/// A size computed from other locals assigned once (an inlined allocator's parameters) is a
/// constant too: each read put in with its variable's type.
#[test]
fn malloc_of_a_size_computed_from_constants_keeps_its_size() {
    assert_malloc_size(
        r#"
struct big { int a[300]; };
struct big *p;
int main() {
  unsigned int priv = 600;
  unsigned long size = priv + sizeof(struct big);
  p = malloc(size);
  return 0;
}
"#,
        "malloc((__typeof__(__ladr_2_size))((__typeof__(__ladr_1_priv))600 + sizeof(struct big)))",
    );
}

/// `posix_memalign` and `realloc` keep a size assigned once as well (`aligned_alloc` is
/// `malloc`); a size that is not a constant makes the call the model's (a `heap-size`
/// cut), as `malloc`'s does.
#[test]
fn aligned_allocations_keep_constant_sizes() {
    let out = check(
        r#"
struct big { int a[300]; };
void *p, *q;
int main(int argc, char **argv) {
  unsigned long size = sizeof(struct big);
  posix_memalign(&p, 64, size);
  q = aligned_alloc(64, size);
  unsigned long n = argc * 16;
  posix_memalign(&p, 64, n);
  q = aligned_alloc(64, n);
  q = realloc(q, size);
  q = realloc(q, n);
  return 0;
}
"#,
        2,
    );
    for want in [
        "posix_memalign(&p, 64, (__typeof__(__ladr_3_size))(sizeof(struct big)))",
        "q = malloc((__typeof__(__ladr_3_size))(sizeof(struct big)))",
        "__ladr_posix_memalign(&p, 64, __ladr_4_n, 128)",
        "q = __ladr_malloc(__ladr_4_n, 128)",
        "q = realloc(q, (__typeof__(__ladr_3_size))(sizeof(struct big)))",
        "q = __ladr_realloc(q, __ladr_4_n, 128)",
        "HeapSize@",
    ] {
        assert!(out.contains(want), "{want}:\n{out}");
    }
}
