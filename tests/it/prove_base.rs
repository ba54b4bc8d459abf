//! Elements at a start every thread read alike (`Step::Base`, `prove/invariant.rs`): a
//! heap array a local pointer of `main` holds (allocated by a helper, so no array alias of
//! one `malloc`), used in a `parallel for` (the region reads it once from its capture), or
//! a global pointer a thread copies into a local, indexed by the iteration's own index;
//! racy programs built to fool the rule are not proved.

use crate::prove::{assert_none_proved, proof_of_source};

/// `main` with heap arrays `a` (`n + 1` doubles) and `b` (`n`) from a helper, `REGION` in
/// between.
fn in_main(region: &str) -> String {
    format!(
        "double *vector(int n) {{ return (double *)malloc(sizeof(double) * n); }}\n\
         int main(void) {{\n  int n = 100, i;\n  double *a = vector(n + 1);\n  \
         double *b = vector(n);\n{region}\n  free(a);\n  free(b);\n  return 0;\n}}\n"
    )
}

fn proved(src: &str) -> bool {
    proof_of_source(src).proved
}

#[test]
fn a_local_heap_array_in_a_parallel_for_is_proved() {
    let pf = "#pragma omp parallel for\n  for (i = 0; i < n; i++)\n";
    // (`a[i] = b[i]` is not: `a` and `b` are blocks of one allocation site, told apart
    // by no rule.)
    for body in ["    a[i] = i;", "  { a[i] = 0; a[i] = a[i] + i; }"] {
        let src = in_main(&format!("{pf}{body}"));
        let p = proof_of_source(&src);
        assert!(p.proved, "{src}\n{:#?}", ladr_report::proof::lines(&p));
    }
    // The same loop through a pointer every iteration moves is not.
    assert!(!proved(&in_main(&format!(
        "{pf}  {{ a[i] = 1; a = a + 1; }}"
    ))));
}

#[test]
fn racy_programs_through_a_base_are_not_proved() {
    let pf = "#pragma omp parallel for\n  for (i = 0; i < n; i++)\n";
    let racy: Vec<(&str, String)> = vec![
        // a loop-carried dependence through the one base
        ("next", in_main(&format!("{pf}    a[i + 1] = a[i] * 2;"))),
        // two bases of one block: `c` is `a` one element on
        (
            "two-bases",
            in_main(&format!(
                "  double *c = a + 1;\n{pf}  {{ a[i] = 1; c[i] = 2; }}"
            )),
        ),
        // one block seen as elements of two sizes
        (
            "two-types",
            in_main(&format!(
                "  float *f = (float *)a;\n{pf}  {{ a[i] = 1; f[i + 1] = 2; }}"
            )),
        ),
        // the base moves while the team runs (written by a thread)
        ("moved", in_main(&format!("{pf}  {{ a[i] = 1; a = b; }}"))),
        // an element of the block reached otherwise: through `b`, which is `a` too
        (
            "alias",
            "int main(void) {\n  int i;\n  double *a = (double *)malloc(sizeof(double) * 100);\n  \
             double *b = a;\n#pragma omp parallel for\n  for (i = 0; i < 100; i++)\n  \
             { a[i] = 1; b[99 - i] = 2; }\n  free(a);\n  return 0;\n}\n"
                .to_string(),
        ),
        // an index every thread shares
        (
            "constant",
            in_main(&format!("{pf}  {{ a[i] = 1; a[0] = 2; }}")),
        ),
    ];
    let racy: Vec<(&str, &str)> = racy.iter().map(|(n, s)| (*n, s.as_str())).collect();
    assert_none_proved("", &racy);
}

/// A global pointer set while `main` runs alone, copied by each thread into a local and
/// indexed by the thread's own iteration of a chunk it claimed: proved; the racy variant
/// whose `main` moves the pointer while threads run is not.
#[test]
fn a_thread_copy_of_a_stable_global_pointer() {
    let routine = "double *G;\nint next;\nint len;\nvoid *thr(void *arg) {\n  double *L;\n  L = G;\n  \
                   int c, end;\n  c = 0;\n  end = 0;\n  pthread_mutex_lock(&m);\n  \
                   if (next + 10 <= len) { c = next; next = end = next + 10; }\n  pthread_mutex_unlock(&m);\n  \
                   while (c < end) { L[c] = 1; c = c + 1; }\n  return 0;\n}\n";
    let main = |extra: &str| {
        format!(
            "{routine}int main(void) {{\n  G = (double *)malloc(sizeof(double) * 100);\n  next = 0;\n  len = 100;\n  \
             pthread_t t1, t2;\n  pthread_create(&t1, 0, thr, 0);\n  pthread_create(&t2, 0, thr, 0);\n{extra}  \
             pthread_join(t1, 0);\n  pthread_join(t2, 0);\n  return 0;\n}}\n"
        )
    };
    let p = proof_of_source(&main(""));
    assert!(p.proved, "{:#?}", ladr_report::proof::lines(&p));
    let moved = main("  G = G + 5;\n");
    assert_none_proved("", &[("moved-global", moved.as_str())]);
}
