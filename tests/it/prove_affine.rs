//! Affine indices of a worksharing loop's variable (`prove/affine.rs`) and columns bounded
//! relative to other locals (`prove/bounds.rs`): rows `α·i + β + Σ κ·v` of a value the
//! team shares, apart for two iterations when their offsets are equal or differ by no
//! multiple of `α`; racy programs built to fool the rules are not proved.

use crate::prove::{assert_none_proved, proof_of_source};

/// `main` with `double a[40][8]` and a sequential step loop `t` around a `parallel for`
/// over `i` from `t` whose body is `BODY`.
fn wave(body: &str) -> String {
    format!(
        "double a[40][8];\nint main(void) {{\n  int t, i, j;\n  for (t = 1; t < 3; t++)\n\
         #pragma omp parallel for private(j)\n    for (i = t; i < t + 4; i++) {{\n{body}\n    }}\n  \
         return 0;\n}}\n"
    )
}

#[test]
fn rows_of_one_stride_and_a_shared_step_are_proved_apart() {
    for body in [
        // neighbours of a row three apart from any other iteration's
        "      a[3 * i - 2 * t][0] = a[3 * i - 2 * t - 1][0] + a[3 * i - 2 * t + 1][0];",
        // even and odd rows of a stride of two
        "      a[2 * i][1] = a[2 * i + 1][1];",
        // columns relative to `t` and `i`, within the row
        "      for (j = 2 * t - 2 * i + 1; j <= 2 * t - 2 * i + 6; j++)\n        \
         a[3 * i - 2 * t][j - 2 * t + 2 * i] = a[3 * i - 2 * t + 1][j - 2 * t + 2 * i + 1];",
    ] {
        let src = wave(body);
        let p = proof_of_source(&src);
        assert!(p.proved, "{src}\n{:#?}", ladr_report::proof::lines(&p));
    }
}

#[test]
fn racy_strides_are_not_proved() {
    let racy: Vec<(&str, String)> = vec![
        // the row of iteration i - 1: a multiple of the stride apart
        ("stride", wave("      a[3 * i][0] = a[3 * i - 3][0];")),
        // two strides: 2i = 3i' for i = 3, i' = 2
        ("two-strides", wave("      a[2 * i][0] = a[3 * i][0] + 1;")),
        // iteration i reads the row of iteration i + t
        (
            "offset-by-term",
            wave("      a[3 * i][0] = a[3 * i + 3 * t][0];"),
        ),
        // columns that leave their row: up to 3 rows on, another iteration's
        (
            "column-past-the-row",
            wave(
                "      for (j = 2 * t; j <= 2 * t + 24; j++)\n        \
                 a[3 * i][j - 2 * t] = 1;",
            ),
        ),
        // a column of a local the body moves: 5 columns on per step, 3 rows on at the end
        (
            "moved-column",
            wave(
                "      int m = 2 * t;\n      for (j = 2 * t; j <= 2 * t + 6; j++) {\n        \
                 a[3 * i][j - m] = 1;\n        m = m - 4;\n      }",
            ),
        ),
        // a shared value a thread writes while the team runs
        (
            "written-term",
            "int s = 1;\ndouble a[40][8];\nint main(void) {\n  int i;\n\
             #pragma omp parallel for\n  for (i = 0; i < 4; i++) {\n    \
             a[3 * i + s][0] = a[3 * i][0];\n    s = 3;\n  }\n  return 0;\n}\n"
                .to_string(),
        ),
    ];
    let racy: Vec<(&str, &str)> = racy.iter().map(|(n, s)| (*n, s.as_str())).collect();
    assert_none_proved("", &racy);
}

/// Modulo `2^w`, `2·i` meets `2·i'` for `i' = i + 2^(w-1)`: a stride above 1 is no proof
/// for an unsigned loop variable.
#[test]
fn a_stride_of_an_unsigned_variable_is_not_used() {
    let src = "double a[40][8];\nint main(void) {\n  unsigned i;\n\
               #pragma omp parallel for\n  for (i = 0; i < 4; i++)\n    \
               a[2 * i][0] = a[2 * i + 1][0];\n  return 0;\n}\n";
    assert!(!proof_of_source(src).proved);
}

/// A racy kernel over two blocks passed as `double (*)[N]`: the explanation is the view
/// that names the block and its accesses, not memory reached through pointers.
#[test]
fn an_unproved_kernel_names_its_block() {
    let src = "void *alloc_data(int n, int s);\n\
               static void kernel(double A[8][8], double B[8][8]) {\n  int i;\n\
               #pragma omp parallel for\n  for (i = 0; i < 7; i++)\n    \
               A[i + 1][0] = A[i][0] + B[i][0];\n}\n\
               int main(void) {\n  \
               double (*A)[8][8] = (double (*)[8][8])alloc_data(64, sizeof(double));\n  \
               double (*B)[8][8] = (double (*)[8][8])alloc_data(64, sizeof(double));\n  \
               kernel(*A, *B);\n  free(A);\n  free(B);\n  return 0;\n}\n";
    let p = proof_of_source(src);
    assert!(!p.proved);
    let lines = ladr_report::proof::lines(&p);
    let unproved: Vec<&String> = lines
        .iter()
        .filter(|l| l.starts_with("not proved"))
        .collect();
    assert!(
        unproved
            .iter()
            .any(|l| l.contains("`A@malloc (local of main)`")),
        "{lines:#?}"
    );
    assert!(
        !unproved
            .iter()
            .any(|l| l.contains("memory reached through pointers")),
        "{lines:#?}"
    );
}
