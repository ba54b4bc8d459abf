//! The proof's disjoint array indices per thread (`prove/disjoint.rs`): racy programs
//! built to fool the rule are never proved, and the rule proves what it is for.

use crate::prove::{assert_none_proved_with_main, proof_of_source};

/// Two arrays, a block owned by a global, a nondeterministic value.
const ARRAYS: &str = r#"extern int __VERIFIER_nondet_int(void);
int a[300]; int b[300]; int *datas; int next;
"#;

/// `main` starting 8 threads of `w` in a counted loop, each given its counter, and
/// joining them before it reads `a` (unless the program has its own `main`).
const MAIN: &str = r#"int main(void) {
  pthread_t t[8];
  datas = malloc(8 * sizeof(int));
  for (int i = 0; i < 8; i++) pthread_create(&t[i], 0, w, (void *)i);
  for (int i = 0; i < 8; i++) pthread_join(t[i], 0);
  return a[0] + b[0];
}"#;

/// Racy programs (with [`ARRAYS`] and [`MAIN`]): two thread instances, or a thread and
/// `main`, may touch one element, one of them writing.
const RACY_DISJOINT: &[(&str, &str)] = &[
    // the index changed in the thread
    (
        "d1",
        "void *w(void *arg) { int tid; tid = (int)arg; tid = tid / 2; a[tid] = 1; return 0; }",
    ),
    // the index incremented in the thread
    (
        "d2",
        "void *w(void *arg) { int tid = (int)arg; a[tid] = 1; tid++; a[tid] = 2; return 0; }",
    ),
    // the neighbour's element
    (
        "d3",
        "void *w(void *arg) { int tid = (int)arg; a[tid + 1] = 1; a[tid] = 2; return 0; }",
    ),
    // the index read from a global that `main` changes
    (
        "d4",
        "void *w(void *arg) { a[next] = 1; return 0; }\nint main(void) { pthread_t t[8]; for (int i = 0; i < 8; i++) { next = i; pthread_create(&t[i], 0, w, (void *)i); } for (int i = 0; i < 8; i++) pthread_join(t[i], 0); return 0; }",
    ),
    // two creates in one loop give two threads the same index
    (
        "d5",
        "void *w(void *arg) { a[(int)arg] = 1; return 0; }\nint main(void) { pthread_t t[8], u[8]; for (int i = 0; i < 8; i++) { pthread_create(&t[i], 0, w, (void *)i); pthread_create(&u[i], 0, w, (void *)i); } return 0; }",
    ),
    // two loops create the routine: each index twice
    (
        "d6",
        "void *w(void *arg) { a[(int)arg] = 1; return 0; }\nint main(void) { pthread_t t[8], u[8]; for (int i = 0; i < 8; i++) pthread_create(&t[i], 0, w, (void *)i); for (int i = 0; i < 8; i++) pthread_create(&u[i], 0, w, (void *)i); return 0; }",
    ),
    // the counter stepped back (conditionally): an index given twice
    (
        "d7",
        "void *w(void *arg) { a[(int)arg] = 1; return 0; }\nint main(void) { pthread_t t[8]; for (int i = 0; i < 8; i++) { pthread_create(&t[i], 0, w, (void *)i); if (__VERIFIER_nondet_int()) i--; } return 0; }",
    ),
    // the array read by `main` before the join
    (
        "d8",
        "void *w(void *arg) { a[(int)arg] = 1; return 0; }\nint main(void) { pthread_t t[8]; for (int i = 0; i < 8; i++) pthread_create(&t[i], 0, w, (void *)i); int r = a[3]; for (int i = 0; i < 8; i++) pthread_join(t[i], 0); return r; }",
    ),
    // `main` writes the thread's element right after creating it
    (
        "d9",
        "void *w(void *arg) { int tid = (int)arg; a[tid]++; return 0; }\nint main(void) { pthread_t t[8]; for (int i = 0; i < 8; i++) { pthread_create(&t[i], 0, w, (void *)i); a[i] = 0; } for (int i = 0; i < 8; i++) pthread_join(t[i], 0); return 0; }",
    ),
    // the element through a pointer copy, one past it
    (
        "d10",
        "void *w(void *arg) { int tid = (int)arg; int *p = &a[tid]; *(p + 1) = 1; a[tid] = 2; return 0; }",
    ),
    // the counter's address as the argument: the index read after `main` moved on
    (
        "d11",
        "void *w(void *arg) { int tid = *(int *)arg; a[tid] = 1; return 0; }\nint main(void) { pthread_t t[8]; for (int i = 0; i < 8; i++) pthread_create(&t[i], 0, w, &i); for (int i = 0; i < 8; i++) pthread_join(t[i], 0); return 0; }",
    ),
    // nested loops: the inner counter repeats for each round of the outer loop
    (
        "d12",
        "void *w(void *arg) { a[(int)arg] = 1; return 0; }\nint main(void) { pthread_t t[2][4]; for (int k = 0; k < 2; k++) { for (int i = 0; i < 4; i++) pthread_create(&t[k][i], 0, w, (void *)i); } return 0; }",
    ),
    // two routines of two loops, each with its own indices, on one array
    (
        "d13",
        "void *v(void *arg) { a[(int)arg] = 2; return 0; }\nvoid *w(void *arg) { a[(int)arg] = 1; return 0; }\nint main(void) { pthread_t t[8], u[8]; for (int i = 0; i < 8; i++) pthread_create(&t[i], 0, w, (void *)i); for (int i = 0; i < 8; i++) pthread_create(&u[i], 0, v, (void *)i); for (int i = 0; i < 8; i++) pthread_join(t[i], 0); for (int i = 0; i < 8; i++) pthread_join(u[i], 0); return 0; }",
    ),
    // two arrays swapped between two routines of one loop each
    (
        "d14",
        "void *v(void *arg) { int k = (int)arg; b[k] = a[k]; return 0; }\nvoid *w(void *arg) { int k = (int)arg; a[k] = b[k]; return 0; }\nint main(void) { pthread_t t[8], u[8]; for (int i = 0; i < 8; i++) pthread_create(&t[i], 0, w, (void *)i); for (int i = 0; i < 8; i++) pthread_create(&u[i], 0, v, (void *)i); return 0; }",
    ),
    // a narrow index: threads 0 and 256 share `unsigned char` 0
    (
        "d15",
        "void *w(void *arg) { unsigned char tid = (unsigned char)arg; a[tid] = 1; return 0; }\nint main(void) { pthread_t t[300]; for (int i = 0; i < 300; i++) pthread_create(&t[i], 0, w, (void *)i); return 0; }",
    ),
    // the same through a cast of the cast
    (
        "d16",
        "void *w(void *arg) { int tid = (int)(unsigned char)(long)arg; a[tid] = 1; return 0; }\nint main(void) { pthread_t t[300]; for (int i = 0; i < 300; i++) pthread_create(&t[i], 0, w, (void *)i); return 0; }",
    ),
    // the counter narrowed on its way to the thread
    (
        "d17",
        "void *w(void *arg) { a[(long)arg] = 1; return 0; }\nint main(void) { pthread_t t[300]; for (int i = 0; i < 300; i++) pthread_create(&t[i], 0, w, (void *)(unsigned char)i); return 0; }",
    ),
    // `main` calls the routine itself while threads run: its index 0 is thread 0's
    (
        "d18",
        "void *w(void *arg) { a[(int)arg] = 1; return 0; }\nint main(void) { pthread_t t[8]; for (int i = 0; i < 8; i++) pthread_create(&t[i], 0, w, (void *)i); w((void *)0); return 0; }",
    ),
    // the parameter written in the thread
    (
        "d19",
        "void *w(void *arg) { arg = (void *)0; a[(int)arg] = 1; return 0; }",
    ),
    // the key set on one path only: uninitialised on the other
    (
        "d20",
        "void *w(void *arg) { int tid; if (__VERIFIER_nondet_int()) tid = (int)arg; a[tid] = 1; return 0; }",
    ),
    // the key's address escapes and it is written through it
    (
        "d21",
        "void zero(int *k) { *k = 0; }\nvoid *w(void *arg) { int tid = (int)arg; zero(&tid); a[tid] = 1; return 0; }",
    ),
    // the block halved: the `per-thread-array-index-race` idiom
    (
        "d22",
        "void *w(void *arg) { int i = (int)arg; i /= 2; datas[i] = 1; return 0; }",
    ),
    // a helper creates the threads and is called twice: each index twice
    (
        "d23",
        "void *w(void *arg) { a[(int)arg] = 1; return 0; }\nvoid spawn(void) { pthread_t t[8]; for (int i = 0; i < 8; i++) pthread_create(&t[i], 0, w, (void *)i); }\nint main(void) { spawn(); spawn(); return 0; }",
    ),
    // a goto past the key's assignment: the key uninitialised where it is used
    (
        "d24",
        "void *w(void *arg) { if (__VERIFIER_nondet_int()) goto skip; int tid; tid = (int)arg; skip: a[tid] = 1; return 0; }",
    ),
    // a thread created with a constant argument beside the loop's
    (
        "d25",
        "void *w(void *arg) { a[(int)arg] = 1; return 0; }\nint main(void) { pthread_t t[8], u; for (int i = 0; i < 8; i++) pthread_create(&t[i], 0, w, (void *)i); pthread_create(&u, 0, w, (void *)0); return 0; }",
    ),
    // the routine's address taken and called through a pointer by another thread
    (
        "d26",
        "void *w(void *arg) { a[(int)arg] = 1; return 0; }\nvoid *(*fp)(void *) = w;\nvoid *v(void *arg) { fp((void *)3); return 0; }\nint main(void) { pthread_t t[8], u; pthread_create(&u, 0, v, 0); for (int i = 0; i < 8; i++) pthread_create(&t[i], 0, w, (void *)i); return 0; }",
    ),
];

/// `main` handing 8 threads of `w` each its slot `&datas[i]` of a block only `datas`
/// holds (unless the program has its own `main`).
const SLOT_MAIN: &str = r#"int main(void) {
  pthread_t t[8];
  int *datas;
  datas = malloc(8 * sizeof(int));
  for (int i = 0; i < 8; i++) pthread_create(&t[i], 0, w, &datas[i]);
  for (int i = 0; i < 8; i++) pthread_join(t[i], 0);
  int r = datas[0];
  free(datas);
  return r;
}"#;

/// Racy programs (with [`ARRAYS`] and [`SLOT_MAIN`]) built to fool the per-thread slots
/// of `prove/slot.rs`.
const RACY_SLOT: &[(&str, &str)] = &[
    // two threads given one slot (`per-thread-array-ptr-race`)
    (
        "s1",
        "void *w(void *arg) { int *p; p = arg; *p = 1; return 0; }\nint main(void) { pthread_t t[8]; int *datas; datas = malloc(8 * sizeof(int)); for (int i = 0; i < 8; i++) pthread_create(&t[i], 0, w, &datas[i / 2]); return 0; }",
    ),
    // the neighbour's slot through the pointer
    (
        "s2",
        "void *w(void *arg) { int *p; p = arg; int r = *(p + 1); *p = 2; return (void *)(long)r; }",
    ),
    // the pointer published in a global, written through by every thread
    (
        "s3",
        "void *w(void *arg) { int *p; p = arg; g = p; *g = 1; *p = 2; return 0; }",
    ),
    // `main` keeps a copy of the block and writes it while threads run
    (
        "s4",
        "void *w(void *arg) { int *p; p = arg; *p = 1; return 0; }\nint main(void) { pthread_t t[8]; int *datas; datas = malloc(8 * sizeof(int)); int *q; q = datas; for (int i = 0; i < 8; i++) pthread_create(&t[i], 0, w, &datas[i]); q[3] = 0; return 0; }",
    ),
    // `main` writes the slot right after the create
    (
        "s5",
        "void *w(void *arg) { int *p; p = arg; *p = 1; return 0; }\nint main(void) { pthread_t t[8]; int *datas; datas = malloc(8 * sizeof(int)); for (int i = 0; i < 8; i++) { pthread_create(&t[i], 0, w, &datas[i]); datas[i] = 0; } return 0; }",
    ),
    // `main` reads a slot before the join
    (
        "s6",
        "void *w(void *arg) { int *p; p = arg; *p = 1; return 0; }\nint main(void) { pthread_t t[8]; int *datas; datas = malloc(8 * sizeof(int)); for (int i = 0; i < 8; i++) pthread_create(&t[i], 0, w, &datas[i]); int r = datas[3]; for (int i = 0; i < 8; i++) pthread_join(t[i], 0); return r; }",
    ),
    // a wider pointer: its write covers the next slot too
    (
        "s7",
        "void *w(void *arg) { long *p; p = arg; *p = 1; return 0; }",
    ),
    // the pointer handed to the library
    (
        "s8",
        "void *w(void *arg) { int *p; p = arg; memset(p, 0, 2 * sizeof(int)); return 0; }",
    ),
    // the pointer moved to the next slot
    (
        "s9",
        "void *w(void *arg) { int *p; p = arg; p = p + 1; *p = 1; return 0; }",
    ),
    // a member's address: the pointer derived from it reaches the next slot
    (
        "s10",
        "struct two { int x; int y; };\nvoid *w(void *arg) { struct two *p; p = arg; int *q; q = &p->x; q[2] = 1; return 0; }\nint main(void) { pthread_t t[8]; struct two *datas; datas = malloc(8 * sizeof(struct two)); for (int i = 0; i < 8; i++) pthread_create(&t[i], 0, w, &datas[i]); return 0; }",
    ),
    // an array member decays: its address reaches the next slot
    (
        "s11",
        "struct row { int cells[2]; };\nvoid *w(void *arg) { struct row *p; p = arg; int *q; q = p->cells; q[2] = 1; return 0; }\nint main(void) { pthread_t t[8]; struct row *datas; datas = malloc(8 * sizeof(struct row)); for (int i = 0; i < 8; i++) pthread_create(&t[i], 0, w, &datas[i]); return 0; }",
    ),
    // the pointer given a global's address on one path
    (
        "s12",
        "void *w(void *arg) { int *p; p = arg; if (__VERIFIER_nondet_int()) p = &next; *p = 1; return 0; }",
    ),
    // the block is a global's too, which another thread writes
    (
        "s13",
        "void *w(void *arg) { int *p; p = arg; *p = 1; return 0; }\nvoid *v(void *arg) { g[1] = 2; return 0; }\nint main(void) { pthread_t t[8], u; g = malloc(8 * sizeof(int)); int *datas; datas = g; pthread_create(&u, 0, v, 0); for (int i = 0; i < 8; i++) pthread_create(&t[i], 0, w, &datas[i]); return 0; }",
    ),
    // `main` calls the routine with slot 0 while thread 0 runs
    (
        "s14",
        "void *w(void *arg) { int *p; p = arg; *p = 1; return 0; }\nint main(void) { pthread_t t[8]; int *datas; datas = malloc(8 * sizeof(int)); for (int i = 0; i < 8; i++) pthread_create(&t[i], 0, w, &datas[i]); w(&datas[0]); return 0; }",
    ),
    // the argument copied to a second pointer, which reaches the next slot
    (
        "s16",
        "void *w(void *arg) { int *p; p = arg; int *q; q = (int *)arg; *p = 1; int r = *(q + 1); return (void *)(long)r; }",
    ),
    // `main` writes slot 0 before each create: thread 0 reads it meanwhile
    (
        "s17",
        "void *w(void *arg) { int *p; p = arg; int r = *p; return (void *)(long)r; }\nint main(void) { pthread_t t[8]; int *datas; datas = malloc(8 * sizeof(int)); int j = 0; for (int i = 0; i < 8; i++) { datas[j] = i; pthread_create(&t[i], 0, w, &datas[i]); } return 0; }",
    ),
    // `main` reads slot 0 while handing over the next: thread 0 writes it meanwhile
    (
        "s18",
        "void *w(void *arg) { int *p; p = arg; *p = 1; return 0; }\nint main(void) { pthread_t t[8]; int *datas; datas = malloc(8 * sizeof(int)); for (int i = 0; i < 8; i++) { datas[i] = datas[0]; pthread_create(&t[i], 0, w, &datas[i]); } return 0; }",
    ),
    // the block shadowed by another of the same name inside the loop's block
    (
        "s15",
        "void *w(void *arg) { int *p; p = arg; *p = 1; return 0; }\nint main(void) { pthread_t t[8]; int *datas; datas = malloc(8 * sizeof(int)); { int *datas; datas = g; for (int i = 0; i < 8; i++) pthread_create(&t[i], 0, w, &datas[i]); g[2] = 0; } return 0; }",
    ),
];

#[test]
fn racy_programs_built_to_fool_per_thread_slots_are_not_proved() {
    assert_none_proved_with_main(ARRAYS, SLOT_MAIN, RACY_SLOT);
}

/// A slot of ints and a slot of structs, written through `*p` and `p->m`, the ints
/// written by `main` before it hands each over (`per-thread-array-init`), read by `main`
/// after the join: proved; `main` touching a slot before the join: not.
#[test]
fn per_thread_slots_prove_a_race_free_program() {
    let body = r#"struct pair { int x; long y; };
void *w(void *arg) { int *p; p = arg; *p = *p + 1; return 0; }
void *v(void *arg) { struct pair *q; q = (struct pair *)arg; q->x = 1; q->y = q->x; return 0; }
int main(void) {
  pthread_t t[8], u[4];
  int *datas;
  datas = calloc(8, sizeof(int));
  struct pair *pairs;
  pairs = malloc(4 * sizeof(struct pair));
  for (int i = 0; i < 8; i++) {
    datas[i] = i;
    pthread_create(&t[i], 0, w, &datas[i]);
  }
  for (int i = 0; i < 4; i++) pthread_create(&u[i], 0, v, (void *)&pairs[i]);
  for (int i = 0; i < 8; i++) pthread_join(t[i], 0);
  for (int i = 0; i < 4; i++) pthread_join(u[i], 0);
  int r = datas[0] + pairs[3].x;
  free(datas);
  free(pairs);
  return r;
}"#;
    let p = proof_of_source(body);
    assert!(p.proved, "{:#?}", ladr_report::proof::lines(&p));
    assert!(
        p.objects
            .iter()
            .filter(|o| o.rule == "disjoint-index")
            .count()
            == 2,
        "{:#?}",
        ladr_report::proof::lines(&p)
    );
    let twin = body.replace(
        "  for (int i = 0; i < 8; i++) pthread_join(t[i], 0);\n",
        "  datas[2] = 0;\n  for (int i = 0; i < 8; i++) pthread_join(t[i], 0);\n",
    );
    assert!(!proof_of_source(&twin).proved);
}

#[test]
fn racy_programs_built_to_fool_disjoint_indices_are_not_proved() {
    assert_none_proved_with_main(ARRAYS, MAIN, RACY_DISJOINT);
}

/// The rule proves the idiom in its forms: `a[(int)arg]`, a key, a member of the own
/// element, a row of a two-dimensional array, a block owned by a global, a `long`
/// counter, and `main` touching the arrays only while alone.
#[test]
fn disjoint_indices_prove_a_race_free_program() {
    let body = r#"struct cell { int datum; int other; } cells[8];
int grid[8][4];
int *datas;
long wide[8];
void *w(void *arg) {
  int tid;
  tid = (int)arg;
  cells[tid].datum++;
  cells[tid].other = cells[tid].datum;
  for (int j = 0; j < 4; j++) grid[tid][j] = j;
  datas[(long)arg] = tid;
  return 0;
}
void *v(void *arg) { long k = (long)arg; wide[k] = k; return 0; }
int main(void) {
  pthread_t t[8], u[8];
  datas = malloc(8 * sizeof(int));
  for (int i = 0; i < 8; i++) cells[i].datum = 0;
  for (int i = 0; i < 8; i++) pthread_create(&t[i], 0, w, (void *)i);
  for (int i = 0; i < 8; i++) pthread_join(t[i], 0);
  for (long i = 0; i < 8; i++) pthread_create(&u[i], 0, v, (void *)i);
  for (long i = 0; i < 8; i++) pthread_join(u[i], 0);
  return cells[3].datum + grid[2][1] + datas[5] + (int)wide[1];
}"#;
    let p = proof_of_source(body);
    assert!(p.proved, "{:#?}", ladr_report::proof::lines(&p));
    for object in ["cells", "grid", "wide"] {
        assert!(
            p.objects
                .iter()
                .any(|o| o.object == object && o.rule == "disjoint-index"),
            "{object}: {:#?}",
            ladr_report::proof::lines(&p)
        );
    }
    // The twin: one thread writes its neighbour's cell.
    let twin = body.replace("cells[tid].other =", "cells[(tid + 1) % 8].other =");
    assert!(!proof_of_source(&twin).proved);
}
