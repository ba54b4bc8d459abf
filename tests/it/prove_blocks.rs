//! The proof's view of `main` through calls with arguments (`prove/splice.rs`: parameters
//! bound to the arguments) and of the blocks `main` allocates once (`prove/blocks.rs`: as
//! arrays of `main`, which the array aliases index). Racy programs built to fool them are
//! never proved, and they prove the OpenMP shapes they are for.

use crate::prove::{assert_none_proved, proof_of_source};

const PRELUDE: &str = "#include <omp.h>\nint A[100];\n";

/// A function `f` with a worksharing loop over its parameters (`PARAMS`, `BODY`), called
/// from `main` (`MAIN`, which calls `f`).
fn called(params: &str, body: &str, main: &str) -> String {
    format!(
        "void f({params}) {{\n  int i;\n#pragma omp parallel for\n  for (i = 0; i < 99; i++)\n    {body}\n}}\nint main(void) {{\n  {main}\n  return 0;\n}}\n"
    )
}

fn racy() -> Vec<(&'static str, String)> {
    vec![
        // a loop-carried dependence through a parameter bound to a global array
        ("param-next", called("int *a", "a[i] = a[i + 1];", "f(A);")),
        // … named like `main`'s own local array, which it is bound to
        (
            "param-named-like-local",
            called("int *a", "a[i] = a[i + 1];", "int a[100];\n  f(a);"),
        ),
        // one array through two parameters
        ("param-twice", called("int *a, int *b", "a[i] = b[i + 1];", "f(A, A);")),
        // a parameter bound off the array's start: `a[i]` is `A[i + 1]`
        ("param-offset", called("int *a, int *b", "a[i] = b[i];", "f(A + 1, A);")),
        // an array parameter (a pointer) with the dependence
        ("param-array", called("int a[]", "a[i + 1] = a[i];", "f(A);")),
        // the argument a global pointer `main` moves after the call's binding
        (
            "param-global-pointer",
            called("int *a", "a[i] = g[i + 1];", "g = A;\n  f(A);"),
        ),
        // a block `main` allocates, with the dependence
        (
            "block-next",
            called(
                "int *a",
                "a[i] = a[i + 1];",
                "int *p = malloc(100 * sizeof(int));\n  f(p);",
            ),
        ),
        // … copied into a second pointer, each parameter one of them
        (
            "block-copied",
            called(
                "int *a, int *b",
                "a[i] = b[i + 1];",
                "int *p = malloc(100 * sizeof(int));\n  int *q = p;\n  f(p, q);",
            ),
        ),
        // … used as two element types: `c[4 * i + 4]` is a byte of `p[i + 1]`
        (
            "block-two-types",
            called(
                "int *a, char *c",
                "{ a[i] = 1; c[4 * i + 4] = 2; }",
                "void *t = malloc(400);\n  int *p = t;\n  char *q = t;\n  f(p, q);",
            ),
        ),
        // … moved on before the call
        (
            "block-moved",
            called(
                "int *a, int *b",
                "a[i] = b[i];",
                "int *p = malloc(100 * sizeof(int));\n  int *q = p;\n  p++;\n  f(p, q);",
            ),
        ),
        // two blocks, one pointer: the second block's elements through both parameters
        (
            "block-reassigned",
            called(
                "int *a, int *b",
                "a[i] = b[i + 1];",
                "int *p = malloc(400);\n  int *q = p;\n  p = malloc(400);\n  q = p;\n  f(p, q);",
            ),
        ),
        // a block allocated in a loop of `main`, two threads writing one element
        (
            "block-in-loop-pthreads",
            "int *cap;\nvoid *w(void *x) {\n  int *p;\n  p = cap;\n  p[0] = 1;\n  return 0;\n}\nint main(void) {\n  pthread_t t[2];\n  int k;\n  for (k = 0; k < 2; k++) {\n    cap = malloc(4 * sizeof(int));\n    pthread_create(&t[k], 0, w, 0);\n  }\n  return 0;\n}\n".to_string(),
        ),
        // a block of `main`, the thread and `main` writing its first element
        (
            "block-pthreads",
            "int *cap;\nvoid *w(void *x) {\n  int *p;\n  p = cap;\n  p[0] = 1;\n  return 0;\n}\nint main(void) {\n  pthread_t t;\n  int *b = malloc(4 * sizeof(int));\n  cap = b;\n  pthread_create(&t, 0, w, 0);\n  b[0] = 2;\n  pthread_join(t, 0);\n  return 0;\n}\n".to_string(),
        ),
    ]
}

#[test]
fn racy_programs_built_to_fool_parameters_and_blocks_are_not_proved() {
    let programs = racy();
    let programs: Vec<(&str, &str)> = programs.iter().map(|(n, b)| (*n, b.as_str())).collect();
    assert_none_proved(PRELUDE, &programs);
}

#[test]
fn parameters_and_blocks_prove_regions_in_called_functions() {
    for (name, main, params, body) in [
        // DRB048's shape: a global array through a pointer parameter, a value parameter
        ("global-array", "f(A, 7);", "int *a, int k", "a[i] = a[i] + k;"),
        // DRB050's: array parameters
        ("array-parameters", "f(A, A);", "int a[], int c[]", "a[i] = 2 * c[i];"),
        // DRB067's: blocks of `main`, `restrict` parameters
        (
            "blocks",
            "double *x = malloc(100 * sizeof(double));\n  double *y = malloc(100 * sizeof(double));\n  f(x, y);\n  free(x);\n  free(y);",
            "double *restrict a, double *restrict b",
            "{ a[i] = 0.0; b[i] = a[i] + 1.0; }",
        ),
        // DRB068's: the blocks checked for null on the way
        (
            "blocks-checked",
            "int *x;\n  x = (int *)malloc(400);\n  if (x == 0)\n    return 1;\n  f(x, 3);",
            "int *a, int n",
            "a[i] = n * i;",
        ),
    ] {
        let src = format!("{PRELUDE}{}", called(params, body, main));
        let p = proof_of_source(&src);
        assert!(p.proved, "{name}:\n{src}\n{:#?}", ladr_report::proof::lines(&p));
    }
}
