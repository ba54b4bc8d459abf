//! The proof's array aliases (`prove/alias.rs`): a pointer that can only hold one array's
//! start indexes that array. Racy programs built to fool it are never proved, and it
//! proves the OpenMP regions over a local array of `main` it is for.

use crate::prove::{assert_none_proved, proof_of_source};

const PRELUDE: &str = "int A[10]; int B[10]; int M[4][4];\n";

/// A thread reads the capture `cap` into `p` (`DECL`, then `USE`), `main` sets the capture
/// (`SET`) and writes `WRITE` while the thread runs.
fn thread_and_main(decl: &str, use_: &str, set: &str, write: &str) -> String {
    format!(
        "void *w(void *x) {{\n  {decl}\n  {use_}\n  return 0;\n}}\nint main(void) {{\n  pthread_t t;\n  {set}\n  pthread_create(&t, 0, w, 0);\n  {write}\n  pthread_join(t, 0);\n  return 0;\n}}\n"
    )
}

/// A thread writes `p[1][0]` through rows read as `sizeof(ROWS[0]) / sizeof(ROWS[0][0])`,
/// `p` holding `double b[4][8]`'s start; `main` writes `b[2][0]`: racy unless `ROWS` is
/// `b` (`c` has rows of 16: `p[1][0]` is `b[2][0]`).
fn vla_rows(rows: &str) -> String {
    format!(
        "void *cap; long dim;\nvoid *w(void *x) {{\n  long t;\n  t = dim;\n  double (*p)[t];\n  p = cap;\n  p[1][0] = 1;\n  return 0;\n}}\n\
         int main(void) {{\n  pthread_t th;\n  int n = 4, m = 8;\n  double b[n][m];\n  double c[n][16];\n  cap = b;\n  dim = sizeof({rows}[0]) / sizeof({rows}[0][0]);\n  pthread_create(&th, 0, w, 0);\n  b[2][0] = 2;\n  pthread_join(th, 0);\n  return 0;\n}}\n"
    )
}

fn racy() -> Vec<(&'static str, String)> {
    vec![
        // the capture set to two arrays: `p` may point to `B`
        (
            "two-arrays",
            format!(
                "int *cap;\n{}",
                thread_and_main("int *p;", "p = cap; p[0] = 1;", "cap = A; cap = B;", "B[0] = 2;")
            ),
        ),
        // the capture moved: `p[0]` is `A[1]`
        (
            "moved-capture",
            format!(
                "int *cap;\n{}",
                thread_and_main("int *p;", "p = cap; p[0] = 1;", "cap = A; cap++;", "A[1] = 2;")
            ),
        ),
        // … set off the start
        (
            "offset-capture",
            format!(
                "int *cap;\n{}",
                thread_and_main("int *p;", "p = cap; p[0] = 1;", "cap = &A[1];", "A[1] = 2;")
            ),
        ),
        // the pointer moved in the thread
        (
            "moved-pointer",
            format!(
                "int *cap;\n{}",
                thread_and_main("int *p;", "p = cap; p++; p[0] = 1;", "cap = A;", "A[1] = 2;")
            ),
        ),
        // the pointer written through its address
        (
            "pointer-through-address",
            format!(
                "int *cap;\n{}",
                thread_and_main(
                    "int *p; int **q = &p;",
                    "p = cap; *q = B; p[0] = 1;",
                    "cap = A;",
                    "B[0] = 2;"
                )
            ),
        ),
        // a flat pointer over a matrix (an incompatible assignment C compilers warn of):
        // `p[4]` is `M[1][0]`
        (
            "flat-pointer",
            format!(
                "int (*cap)[4];\n{}",
                thread_and_main("int *p;", "p = cap; p[4] = 1;", "cap = M;", "M[1][0] = 2;")
            ),
        ),
        // a row pointer of another width: `p[1][0]` is `M[0][2]`
        (
            "narrow-rows",
            format!(
                "int (*cap)[2];\n{}",
                thread_and_main("int (*p)[2];", "p = cap; p[1][0] = 1;", "cap = M;", "M[0][2] = 2;")
            ),
        ),
        // the capture written by the thread too, after `main` set it
        (
            "capture-rewritten",
            format!(
                "int *cap;\n{}",
                thread_and_main("int *p;", "cap = B; p = cap; p[0] = 1;", "cap = A;", "B[0] = 2;")
            ),
        ),
        // a local of `main` in a block, named like the global array: the capture holds
        // the block's array, which `main` writes while the thread does
        (
            "shadowing-local",
            "int *cap;\nvoid *w(void *x) {\n  int *p;\n  p = cap;\n  p[0] = 1;\n  return 0;\n}\nint main(void) {\n  pthread_t t;\n  {\n    int A[10];\n    cap = A;\n    pthread_create(&t, 0, w, 0);\n    A[0] = 2;\n    pthread_join(t, 0);\n  }\n  return 0;\n}\n".to_string(),
        ),
        // a local array of `main` through the alias: `main`'s one object, not each
        // thread's own
        (
            "local-of-main",
            "int *cap;\nvoid *w(void *x) {\n  int *p;\n  p = cap;\n  p[0] = 1;\n  return 0;\n}\nint main(void) {\n  pthread_t t;\n  int L[10];\n  cap = L;\n  pthread_create(&t, 0, w, 0);\n  L[0] = 2;\n  pthread_join(t, 0);\n  return 0;\n}\n".to_string(),
        ),
        // … two threads of one routine writing one element of it
        (
            "local-of-main-two-threads",
            "int *cap;\nvoid *w(void *x) {\n  int *p;\n  p = cap;\n  p[3] = 1;\n  return 0;\n}\nint main(void) {\n  pthread_t t, u;\n  int L[10];\n  cap = L;\n  pthread_create(&t, 0, w, 0);\n  pthread_create(&u, 0, w, 0);\n  pthread_join(t, 0);\n  pthread_join(u, 0);\n  return 0;\n}\n".to_string(),
        ),
        // DRB001's shape: a loop-carried dependence over a local array of `main`
        (
            "omp-local-next",
            "#include <omp.h>\nint main(void) {\n  int i;\n  int a[100];\n#pragma omp parallel for\n  for (i = 0; i < 99; i++)\n    a[i] = a[i + 1] + 1;\n  return 0;\n}\n".to_string(),
        ),
        // a variable-length matrix through rows of another matrix's length: `p[1][0]`
        // is `b[2][0]`
        (
            "vla-rows-of-another",
            vla_rows("c"),
        ),
        // … of variable length
        (
            "omp-vla-next",
            "#include <omp.h>\nint main(void) {\n  int i, n = 100;\n  int a[n];\n#pragma omp parallel for\n  for (i = 0; i < n - 1; i++)\n    a[i] = a[i + 1] + 1;\n  return 0;\n}\n".to_string(),
        ),
    ]
}

#[test]
fn racy_programs_built_to_fool_the_aliases_are_not_proved() {
    let programs = racy();
    let programs: Vec<(&str, &str)> = programs.iter().map(|(n, b)| (*n, b.as_str())).collect();
    assert_none_proved(PRELUDE, &programs);
}

#[test]
fn aliases_prove_regions_over_local_arrays_of_main() {
    // DRB053's shape: a local matrix of `main`, the inner loop shared
    let body = "#include <omp.h>\nint main(void) {\n  int i, j;\n  double a[20][20];\n  for (i = 0; i < 19; i++) {\n#pragma omp parallel for\n    for (j = 0; j < 20; j++)\n      a[i][j] += a[i + 1][j];\n  }\n  return 0;\n}\n";
    let p = proof_of_source(body);
    assert!(p.proved, "{body}\n{:#?}", ladr_report::proof::lines(&p));
    // a local vector of variable length, the loop shared
    // a variable-length matrix: the rows the lowering passes are its own (its column 0
    // is within every row; a column `j < m` is not known to be: `bounds.rs`)
    let body = "#include <omp.h>\nint main(void) {\n  int j, n = 10, m = 20;\n  double b[n][m];\n#pragma omp parallel for\n  for (j = 0; j < n; j++)\n    b[j][0] = b[j][0] + 1;\n  return 0;\n}\n";
    let p = proof_of_source(body);
    assert!(p.proved, "{body}\n{:#?}", ladr_report::proof::lines(&p));
    // … by hand (`vla_rows`)
    let body = vla_rows("b");
    let p = proof_of_source(&body);
    assert!(p.proved, "{body}\n{:#?}", ladr_report::proof::lines(&p));
    let body = "#include <omp.h>\nint main(void) {\n  int i, n = 100;\n  double v[n];\n#pragma omp parallel for\n  for (i = 0; i < n; i++)\n    v[i] = v[i] * 2;\n  return 0;\n}\n";
    let p = proof_of_source(body);
    assert!(p.proved, "{body}\n{:#?}", ladr_report::proof::lines(&p));
}
