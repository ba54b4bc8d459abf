//! The proof's barrier rule (`prove/barrier.rs`): racy programs built to fool it are never
//! proved, and it proves what it is for.

use crate::prove::{assert_none_proved_with_main, proof_of_source};

/// Two barriers, a pointer to one, the datum `d` and a value the proof cannot know.
const BARRIERS: &str = r#"pthread_barrier_t b, b2;
pthread_barrier_t *pb;
int d;
int arg_pick(void);
"#;

/// `main` (a participant) writes `d` before its wait; `w`, created once, reads it after
/// its own: two participants, count 2.
const MAIN: &str = "int main(void) { pthread_t t; pthread_barrier_init(&b, 0, 2); pthread_create(&t, 0, w, 0); d = 1; pthread_barrier_wait(&b); pthread_join(t, 0); return d; }";

/// The control's thread: it reads `d` after its wait.
const GOOD: &str = "void *w(void *a) { pthread_barrier_wait(&b); return (void *)(long)d; }";

/// Racy programs (with [`BARRIERS`], and [`MAIN`] where they have none of their own):
/// each has an execution in which a write and a read of `d` run together.
const RACY_BARRIER: &[(&str, &str)] = &[
    // three participants for a count of 2: one round can be `w1` and `w2` while `main`
    // still writes
    (
        "n-plus-1",
        "void *w1(void *a) { pthread_barrier_wait(&b); return (void *)(long)d; }\nvoid *w2(void *a) { pthread_barrier_wait(&b); return 0; }\nint main(void) { pthread_t t, u; pthread_barrier_init(&b, 0, 2); pthread_create(&t, 0, w1, 0); pthread_create(&u, 0, w2, 0); d = 1; pthread_barrier_wait(&b); pthread_join(t, 0); pthread_join(u, 0); return 0; }",
    ),
    // a constant loop of two participants and `main`, count 2
    (
        "loop-n-plus-1",
        "void *w(void *a) { pthread_barrier_wait(&b); return (void *)(long)d; }\nint main(void) { pthread_t t[2]; pthread_barrier_init(&b, 0, 2); for (int i = 0; i < 2; i++) pthread_create(&t[i], 0, w, 0); d = 1; pthread_barrier_wait(&b); for (int i = 0; i < 2; i++) pthread_join(t[i], 0); return 0; }",
    ),
    // the wait in a branch: `w` may read without waiting
    (
        "branch",
        "void *w(void *a) { if (arg_pick()) pthread_barrier_wait(&b); return (void *)(long)d; }",
    ),
    // the wait in a loop of unknown trip count (zero times)
    (
        "loop",
        "void *w(void *a) { while (arg_pick()) pthread_barrier_wait(&b); return (void *)(long)d; }",
    ),
    // a goto over the wait
    (
        "goto",
        "void *w(void *a) { if (arg_pick()) goto out; pthread_barrier_wait(&b); out: return (void *)(long)d; }",
    ),
    // the wait in a callee called conditionally
    (
        "callee",
        "void step(void) { pthread_barrier_wait(&b); }\nvoid *w(void *a) { if (arg_pick()) step(); return (void *)(long)d; }",
    ),
    // a second init, by the thread, to a count of 1 (the routine named before `main`,
    // its init at the item where `main` has its own: only the init rule stops it)
    (
        "second-init",
        "void *a_w(void *a) { int z; pthread_barrier_init(&b, 0, 1); pthread_barrier_wait(&b); return (void *)(long)d; }\nint main(void) { pthread_t t; pthread_barrier_init(&b, 0, 2); pthread_create(&t, 0, a_w, 0); d = 1; pthread_barrier_wait(&b); pthread_join(t, 0); return d; }",
    ),
    // destroyed and initialised again to a count of 1
    (
        "destroy-reinit",
        "void *a_w(void *a) { pthread_barrier_destroy(&b); pthread_barrier_init(&b, 0, 1); pthread_barrier_wait(&b); return (void *)(long)d; }\nint main(void) { pthread_t t; pthread_barrier_init(&b, 0, 2); pthread_create(&t, 0, a_w, 0); d = 1; pthread_barrier_wait(&b); pthread_join(t, 0); return d; }",
    ),
    // a third waiter through a pointer to either `b` or `b2`: `w` and `v` may pass `b`
    // while `main` writes
    (
        "ambiguous-pointer",
        "void *w(void *a) { pthread_barrier_wait(&b); return (void *)(long)d; }\nvoid *v(void *a) { pthread_barrier_wait(pb); return 0; }\nint main(void) { pthread_t t, u; pthread_barrier_init(&b, 0, 2); pthread_barrier_init(&b2, 0, 1); pb = arg_pick() ? &b : &b2; pthread_create(&t, 0, w, 0); pthread_create(&u, 0, v, 0); d = 1; pthread_barrier_wait(&b); pthread_join(t, 0); pthread_join(u, 0); return 0; }",
    ),
    // a non-participant reads `d`
    (
        "non-participant",
        "void *w(void *a) { pthread_barrier_wait(&b); return (void *)(long)d; }\nvoid *r(void *a) { return (void *)(long)d; }\nint main(void) { pthread_t t, u; pthread_barrier_init(&b, 0, 2); pthread_create(&t, 0, w, 0); pthread_create(&u, 0, r, 0); pthread_barrier_wait(&b); d = 1; pthread_join(t, 0); pthread_join(u, 0); return 0; }",
    ),
    // both accesses in the same phase
    (
        "same-phase",
        "void *w(void *a) { int v = d; pthread_barrier_wait(&b); return (void *)(long)v; }",
    ),
    // participants created in a loop of unknown trip count after the init
    (
        "unknown-loop",
        "void *w(void *a) { pthread_barrier_wait(&b); return (void *)(long)d; }\nint main(void) { pthread_t t[4]; int n = arg_pick(); pthread_barrier_init(&b, 0, 2); for (int i = 0; i < n && i < 4; i++) pthread_create(&t[i], 0, w, 0); d = 1; pthread_barrier_wait(&b); return 0; }",
    ),
    // the count from a variable (1: nobody waits for anybody)
    (
        "count-variable",
        "void *w(void *a) { pthread_barrier_wait(&b); return (void *)(long)d; }\nint main(void) { pthread_t t; int n = arg_pick(); pthread_barrier_init(&b, 0, n); pthread_create(&t, 0, w, 0); d = 1; pthread_barrier_wait(&b); pthread_join(t, 0); return 0; }",
    ),
    // the count through a cast: `(_Bool)2` is 1
    (
        "count-cast",
        "void *w(void *a) { pthread_barrier_wait(&b); return (void *)(long)d; }\nint main(void) { pthread_t t; pthread_barrier_init(&b, 0, (_Bool)2); pthread_create(&t, 0, w, 0); d = 1; pthread_barrier_wait(&b); pthread_join(t, 0); return 0; }",
    ),
    // the routine also called by `main`: three waiters for a count of 2
    (
        "called-routine",
        "void *w(void *a) { pthread_barrier_wait(&b); return (void *)(long)d; }\nvoid *v(void *a) { d = 1; pthread_barrier_wait(&b); return 0; }\nint main(void) { pthread_t t, u; pthread_barrier_init(&b, 0, 2); pthread_create(&t, 0, w, 0); pthread_create(&u, 0, v, 0); w(0); pthread_join(t, 0); pthread_join(u, 0); return 0; }",
    ),
    // the init after a thread is created
    (
        "init-late",
        "void *w(void *a) { pthread_barrier_wait(&b); return (void *)(long)d; }\nint main(void) { pthread_t t; pthread_create(&t, 0, w, 0); pthread_barrier_init(&b, 0, 2); d = 1; pthread_barrier_wait(&b); pthread_join(t, 0); return 0; }",
    ),
    // `main` runs again (a second round of threads and waits on one init)
    (
        "main-called",
        "int rounds;\nvoid *w(void *a) { pthread_barrier_wait(&b); return (void *)(long)d; }\nint main(void) { pthread_t t; if (rounds++ == 0) pthread_barrier_init(&b, 0, 2); pthread_create(&t, 0, w, 0); d = 1; pthread_barrier_wait(&b); if (rounds < 2) main(); return 0; }",
    ),
];

#[test]
fn racy_programs_built_to_fool_barriers_are_not_proved() {
    assert_none_proved_with_main(BARRIERS, MAIN, RACY_BARRIER);
}

/// Fewer participants than the count: no round ever completes, so nothing after a wait
/// runs (not racy); still not proved, the count must match exactly.
#[test]
fn too_few_participants_are_not_counted() {
    let body = format!(
        "{BARRIERS}{GOOD}\nint main(void) {{ pthread_t t; pthread_barrier_init(&b, 0, 3); pthread_create(&t, 0, w, 0); d = 1; pthread_barrier_wait(&b); pthread_join(t, 0); return 0; }}"
    );
    let p = proof_of_source(&body);
    assert!(!p.proved, "{:#?}", ladr_report::proof::lines(&p));
}

fn assert_barrier_proves(body: &str, object: &str) {
    let p = proof_of_source(body);
    assert!(p.proved, "{body}\n{:#?}", ladr_report::proof::lines(&p));
    assert!(
        p.objects
            .iter()
            .any(|o| o.object == object && o.rule == "barrier"),
        "{body}\n{:#?}",
        ladr_report::proof::lines(&p)
    );
}

/// The control: the racy programs above are unproved for what they change.
#[test]
fn a_barrier_orders_the_write_before_it_and_the_read_after_it() {
    assert_barrier_proves(&format!("{BARRIERS}{GOOD}\n{MAIN}"), "d");
}

/// Three phases, threads of a constant loop, a wait's result tested, a barrier reached
/// through a pointer to one object, a second barrier, a destroy after the joins.
#[test]
fn barriers_prove_phases_of_a_loop_of_threads() {
    let body = format!(
        r#"{BARRIERS}int e[4];
void *w(void *a) {{
  pthread_barrier_wait(&b);
  int v = d;
  if (pthread_barrier_wait(pb) == PTHREAD_BARRIER_SERIAL_THREAD) v++;
  e[0] = v;
  pthread_barrier_wait(&b2);
  return (void *)(long)(v + e[1]);
}}
int main(void) {{
  pthread_t t[3];
  pb = &b;
  pthread_barrier_init(&b, 0, 4);
  pthread_barrier_init(&b2, 0, 3);
  for (int i = 0; i < 3; i++) pthread_create(&t[i], 0, w, 0);
  d = 1;
  pthread_barrier_wait(&b);
  pthread_barrier_wait(&b);
  d = 2;
  for (int i = 0; i < 3; i++) pthread_join(t[i], 0);
  pthread_barrier_destroy(&b);
  return d;
}}"#
    );
    let p = proof_of_source(&body);
    // `d`: main writes in phases 0 and 2, the threads read in phase 1.
    assert!(
        p.objects
            .iter()
            .any(|o| o.object == "d" && o.rule == "barrier"),
        "{:#?}",
        ladr_report::proof::lines(&p)
    );
    // `e[0]` written by the three threads in one phase of `b` (and of `b2`): a race.
    assert!(!p.proved, "{:#?}", ladr_report::proof::lines(&p));
}
