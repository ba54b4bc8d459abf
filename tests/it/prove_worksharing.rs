//! The proof's OpenMP worksharing rule (`prove/worksharing.rs`): racy programs built to
//! fool it are never proved, and it proves the doall loops it is for.

use crate::prove::{assert_none_proved, proof_of_source};

/// Two global arrays, a matrix and a value the proof cannot know.
const PRELUDE: &str =
    "#include <omp.h>\nint a[100]; int b[100]; int c[100][100]; int s; int arg_pick(void);\n";

/// `main` around a region: `REGION` is replaced.
fn in_main(region: &str) -> String {
    format!("int main(void) {{\n  int i, j, t;\n{region}\n  return 0;\n}}\n")
}

/// Racy programs: each has an execution in which two threads access one element, at
/// least one of them writing, at once.
fn racy() -> Vec<(&'static str, String)> {
    let pf = "#pragma omp parallel for\n  for (i = 0; i < 100; i++)\n";
    vec![
        // DRB001: iteration i reads what iteration i+1 writes
        ("next", in_main(&format!("{pf}    a[i + 1] = a[i] + 1;"))),
        ("previous", in_main(&format!("{pf}    a[i] = a[i - 1] + 1;"))),
        // two affine functions of `i`: a[4] is written by i = 2 and read by i = 4
        ("twice", in_main(&format!("{pf}    a[2 * i % 100] = a[i];"))),
        ("scaled", in_main(&format!("{pf}    a[2 * i] = a[i];"))),
        // every iteration touches a[0] or a[1]
        ("modulo", in_main(&format!("{pf}    a[i % 2] = i;"))),
        // an index through a shared variable
        ("shared-index", in_main(&format!("{pf}    a[i + s] = a[i];"))),
        ("indirect", in_main(&format!("{pf}    a[b[i]] = i;"))),
        // a constant index against the loop's
        ("constant", in_main(&format!("{pf}    a[i] = a[0];"))),
        // the loop variable written in the body: two iterations reach one element
        (
            "written-variable",
            in_main(&format!("{pf}  {{ i = i / 2; a[i] = 1; }}")),
        ),
        // a local `i` of the body shadows the loop variable
        (
            "shadowed",
            in_main(&format!("{pf}  {{ int i = 0; a[i] = 1; }}")),
        ),
        // … uninitialised: any value, in each thread
        ("shadowed-any", in_main(&format!("{pf}  {{ int i; a[i] = 1; }}"))),
        // the transpose: iteration i writes c[i][j], iteration j reads it as c[j][i]
        (
            "transpose",
            in_main(
                "#pragma omp parallel for private(j)\n  for (i = 0; i < 100; i++)\n    for (j = 0; j < 100; j++)\n      c[i][j] = c[j][i];",
            ),
        ),
        // the inner loop's variable first: iterations i and i' write c[j][i], c[j][i']...
        // and read c[j][0]
        (
            "inner-first",
            in_main(
                "#pragma omp parallel for private(j)\n  for (i = 0; i < 100; i++)\n    for (j = 0; j < 100; j++)\n      c[j][i] = c[j][0];",
            ),
        ),
        // an access after the loop, in the region, before its barrier (`nowait`)
        (
            "after-nowait",
            in_main(
                "#pragma omp parallel\n  {\n#pragma omp for nowait\n    for (i = 0; i < 100; i++)\n      a[i] = i;\n    s = a[5];\n  }",
            ),
        ),
        // after the barrier every thread writes a[0]
        (
            "after-barrier",
            in_main(
                "#pragma omp parallel\n  {\n#pragma omp for\n    for (i = 0; i < 100; i++)\n      a[i] = i;\n    a[0] = 1;\n  }",
            ),
        ),
        // `nowait` followed by a loop over the same array: iteration 3 of the second
        // loop may run on one thread while another still runs iteration 3 of the first
        (
            "nowait-then-loop",
            in_main(
                "#pragma omp parallel\n  {\n#pragma omp for nowait\n    for (i = 0; i < 100; i++)\n      a[i] = i;\n#pragma omp for\n    for (i = 0; i < 100; i++)\n      a[i] = a[i] + 1;\n  }",
            ),
        ),
        // an orphaned loop in a function each thread calls twice
        (
            "orphan-called-twice",
            "void f(void) {\n  int i;\n#pragma omp for nowait\n  for (i = 0; i < 100; i++)\n    a[i] = a[i] + 1;\n}\nint main(void) {\n#pragma omp parallel\n  {\n    f();\n    f();\n  }\n  return 0;\n}\n".to_string(),
        ),
        // `lastprivate` copies out while the others still read, with `nowait`
        (
            "lastprivate-nowait",
            in_main(
                "#pragma omp parallel\n  {\n#pragma omp for lastprivate(t) nowait\n    for (i = 0; i < 100; i++)\n      t = a[i];\n    b[0] = t + s;\n    s = b[0];\n  }",
            ),
        ),
        // `schedule(static)` does not save a loop-carried dependence
        (
            "static",
            in_main(
                "#pragma omp parallel for schedule(static)\n  for (i = 0; i < 100; i++)\n    a[i + 1] = a[i];",
            ),
        ),
        // a pointer into the array, moved by each thread
        (
            "pointer",
            "int main(void) {\n  int i;\n  int *p = a;\n#pragma omp parallel for firstprivate(p)\n  for (i = 0; i < 99; i++) {\n    p = p + 1;\n    p[i] = i;\n  }\n  return 0;\n}\n".to_string(),
        ),
        // two regions of one routine... the region inside a function `main` calls from a
        // thread it created: the team may run beside `main`'s other team
        (
            "region-in-thread",
            "void work(void) {\n  int i;\n#pragma omp parallel for\n  for (i = 0; i < 100; i++)\n    a[i] = a[i] + 1;\n}\nvoid *w(void *x) { work(); return 0; }\nint main(void) {\n  pthread_t t;\n  pthread_create(&t, 0, w, 0);\n  work();\n  pthread_join(t, 0);\n  return 0;\n}\n".to_string(),
        ),
        // a thread of `main` still running while the team writes
        (
            "thread-beside-team",
            "void *w(void *x) { a[3] = 1; return 0; }\nint main(void) {\n  int i;\n  pthread_t t;\n  pthread_create(&t, 0, w, 0);\n#pragma omp parallel for\n  for (i = 0; i < 100; i++)\n    a[i] = i;\n  pthread_join(t, 0);\n  return 0;\n}\n".to_string(),
        ),
        // the iteration's index in the second dimension, one column off, behind a row
        // the proof cannot know: iteration j writes c[s][j], iteration j - 1 reads it
        (
            "column-offset",
            in_main(
                "#pragma omp parallel for\n  for (j = 0; j < 99; j++)\n    c[s][j] = c[s][j + 1];",
            ),
        ),
        // the iteration's index in two different dimensions: c[i][0] is c[0][i] at i = 0
        (
            "crossed-dimensions",
            in_main(
                "#pragma omp parallel for\n  for (i = 0; i < 100; i++)\n    c[i][0] = c[0][i] + 1;",
            ),
        ),
        // the region in a function `main` calls once (spliced into `main` for the proof)
        (
            "spliced-next",
            "void work(void) {\n  int i;\n#pragma omp parallel for\n  for (i = 0; i < 100; i++)\n    a[i + 1] = a[i];\n}\nint main(void) {\n  work();\n  return 0;\n}\n".to_string(),
        ),
        // … with a write of `s` after a `nowait` loop each thread reads
        (
            "spliced-nowait",
            "int work(void) {\n  int i;\n#pragma omp parallel\n  {\n#pragma omp for nowait\n    for (i = 0; i < 100; i++)\n      a[i] = s;\n    s = 1;\n  }\n  return 0;\n}\nint main(void) {\n  work();\n  return 0;\n}\n".to_string(),
        ),
        // a function called twice from `main`, each call's team writing `s`
        (
            "called-twice",
            "void work(void) {\n#pragma omp parallel\n  s = s + 1;\n}\nint main(void) {\n  work();\n  work();\n  return 0;\n}\n".to_string(),
        ),
    ]
}

/// Racy programs with regions in a loop of `main` (team nests, `prove/nest.rs`).
fn racy_nests() -> Vec<(&'static str, String)> {
    vec![
        // a loop-carried dependence in each team
        (
            "nest-next",
            in_main(
                "for (t = 0; t < 4; t++) {\n#pragma omp parallel for\n  for (i = 0; i < 99; i++)\n    a[i + 1] = a[i];\n  }",
            ),
        ),
        // … every thread of each team writes `s` (`main` too, as thread 0)
        (
            "nest-shared",
            in_main("for (t = 0; t < 4; t++) {\n#pragma omp parallel\n    s = s + 1;\n  }"),
        ),
        // … a thread created before the loop writes what the loop writes between teams
        (
            "nest-after-thread",
            "void *w(void *x) { s = 2; return 0; }\nint main(void) {\n  int i, t;\n  pthread_t h;\n  pthread_create(&h, 0, w, 0);\n  for (t = 0; t < 4; t++) {\n    s = t;\n#pragma omp parallel for\n    for (i = 0; i < 100; i++)\n      a[i] = i;\n  }\n  pthread_join(h, 0);\n  return 0;\n}\n".to_string(),
        ),
        // … a thread created in the loop, outside any team, joined after it
        (
            "nest-loose-thread",
            "void *w(void *x) { s = 2; return 0; }\nint main(void) {\n  int i, t;\n  pthread_t h;\n  for (t = 0; t < 1; t++) {\n    pthread_create(&h, 0, w, 0);\n#pragma omp parallel for\n    for (i = 0; i < 100; i++)\n      a[i] = i;\n    s = 1;\n  }\n  pthread_join(h, 0);\n  return 0;\n}\n".to_string(),
        ),
    ]
}

/// Racy programs whose race a wrong splice of a function into `main` would hide
/// (`prove/splice.rs`): the spliced body must mean what it meant in its function.
fn racy_splices() -> Vec<(&'static str, &'static str)> {
    vec![
        // `main`'s local `s` would capture the function's global `s`
        (
            "captured-name",
            "void *w(void *x) { s = 2; return 0; }\nvoid f(void) {\n  pthread_t t;\n  pthread_create(&t, 0, w, 0);\n  s = 1;\n  pthread_join(t, 0);\n}\nint main(void) {\n  int s = 0;\n  f();\n  return s;\n}\n",
        ),
        // the function's local `t` would shadow `main`'s handle: the join after the call
        // would wait for the function's thread, not `main`'s
        (
            "shadowed-handle",
            "void *w(void *x) { s = 2; return 0; }\nvoid f(void) {\n  pthread_t t;\n  pthread_create(&t, 0, w, 0);\n  pthread_join(t, 0);\n}\nint main(void) {\n  pthread_t t;\n  pthread_create(&t, 0, w, 0);\n  f();\n  s = 1;\n  pthread_join(t, 0);\n  return 0;\n}\n",
        ),
        // an early return skips the join: the thread outlives the call
        (
            "early-return",
            "void *w(void *x) { s = 2; return 0; }\nvoid f(void) {\n  pthread_t t;\n  pthread_create(&t, 0, w, 0);\n  if (arg_pick()) return;\n  pthread_join(t, 0);\n}\nint main(void) {\n  f();\n  s = 1;\n  return 0;\n}\n",
        ),
        // the function's local `s` would shadow the global for the rest of `main`
        (
            "local-over-global",
            "void *w(void *x) { s = 2; return 0; }\nvoid f(void) {\n  int s = 0;\n  s = s + 1;\n}\nint main(void) {\n  pthread_t t;\n  pthread_create(&t, 0, w, 0);\n  f();\n  s = 1;\n  pthread_join(t, 0);\n  return 0;\n}\n",
        ),
        // a thread calls the function too: it must keep its body
        (
            "called-by-a-thread",
            "void f(void) {\n  s = s + 1;\n}\nvoid *w(void *x) { f(); return 0; }\nint main(void) {\n  pthread_t t;\n  pthread_create(&t, 0, w, 0);\n  f();\n  pthread_join(t, 0);\n  return 0;\n}\n",
        ),
        // the function is also a thread's start routine
        (
            "also-a-routine",
            "void *f(void) {\n  s = s + 1;\n  return 0;\n}\nint main(void) {\n  pthread_t t;\n  pthread_create(&t, 0, (void *(*)(void *))f, 0);\n  f();\n  pthread_join(t, 0);\n  return 0;\n}\n",
        ),
    ]
}

#[test]
fn racy_programs_built_to_fool_the_splice_are_not_proved() {
    assert_none_proved(
        "#include <pthread.h>\nint s; int arg_pick(void);\n",
        &racy_splices(),
    );
}

#[test]
fn racy_programs_built_to_fool_worksharing_are_not_proved() {
    let programs: Vec<_> = racy().into_iter().chain(racy_nests()).collect();
    let programs: Vec<(&str, &str)> = programs.iter().map(|(n, b)| (*n, b.as_str())).collect();
    assert_none_proved(PRELUDE, &programs);
}

fn assert_worksharing_proves(body: &str, object: &str) {
    crate::prove::assert_proved_by(PRELUDE, body, object, &["worksharing"]);
}

#[test]
fn worksharing_proves_doall_loops() {
    let pf = "#pragma omp parallel for\n  for (i = 0; i < 100; i++)\n";
    // DRB045
    assert_worksharing_proves(&in_main(&format!("{pf}    a[i] = a[i] + 1;")), "a");
    // an offset on both sides, and a second array
    assert_worksharing_proves(
        &in_main(&format!(
            "{pf}  {{ a[i + 1] = a[i + 1] + b[i]; b[i] = 0; }}"
        )),
        "a",
    );
    // backwards
    assert_worksharing_proves(
        &in_main(&format!("{pf}    a[99 - i] = a[99 - i] * 2;")),
        "a",
    );
    // rows of a matrix, the inner loop's variable private
    assert_worksharing_proves(
        &in_main(
            "#pragma omp parallel for private(j)\n  for (i = 0; i < 100; i++)\n    for (j = 0; j < 100; j++)\n      c[i][j] = c[i][j] + 1;",
        ),
        "c",
    );
    // `schedule(static)`, three threads, a step of 2, two regions one after the other
    assert_worksharing_proves(
        &in_main(
            "#pragma omp parallel for schedule(static) num_threads(3)\n  for (i = 0; i < 100; i += 2)\n    a[i] = a[i] + 1;\n#pragma omp parallel for private(i)\n  for (i = 0; i < 100; i++)\n    a[i] = a[i] - 1;",
        ),
        "a",
    );
    // a worksharing loop inside a region, with its barrier
    assert_worksharing_proves(
        &in_main(
            "#pragma omp parallel\n  {\n#pragma omp for\n    for (i = 0; i < 100; i++)\n      a[i] = i;\n  }",
        ),
        "a",
    );
    // the iteration's index in the second dimension only (DRB053's inner loop)
    assert_worksharing_proves(
        &in_main(
            "#pragma omp parallel for\n  for (j = 0; j < 100; j++)\n    c[5][j] = c[5][j] + c[6][j];",
        ),
        "c",
    );
}

#[test]
fn worksharing_proves_regions_in_loops_of_main() {
    // DRB053's shape on a global matrix: the inner loop shared, the outer one `main`'s
    assert_worksharing_proves(
        &in_main(
            "for (i = 0; i < 99; i++) {\n#pragma omp parallel for\n  for (j = 0; j < 100; j++)\n    c[i][j] = c[i][j] + c[i + 1][j];\n  }",
        ),
        "c",
    );
    // `main` writes between the teams, alone
    assert_worksharing_proves(
        &in_main(
            "for (t = 0; t < 10; t++) {\n    s = t;\n#pragma omp parallel for\n    for (i = 0; i < 100; i++)\n      a[i] = a[i] + s;\n    b[t] = a[t];\n  }",
        ),
        "a",
    );
}

#[test]
fn worksharing_proves_regions_in_a_function_main_calls_once() {
    // DRB063's shape: the region in `foo`, its bookkeeping in `foo` too
    assert_worksharing_proves(
        "void foo(void) {\n  int i, j;\n#pragma omp parallel for private(j)\n  for (i = 0; i < 100; i++)\n    for (j = 0; j < 99; j++)\n      c[i][j] = c[i][j + 1];\n}\nint main(void) {\n  foo();\n  return 0;\n}\n",
        "c",
    );
    // two functions, the second returning a constant, `main`'s own local beside them
    assert_worksharing_proves(
        "void init(void) {\n  int i;\n#pragma omp parallel for\n  for (i = 0; i < 100; i++)\n    a[i] = i;\n}\nint mv(void) {\n  int i;\n#pragma omp parallel for\n  for (i = 0; i < 100; i++)\n    b[i] = a[i] * 2;\n  return 0;\n}\nint main(void) {\n  int k = 1;\n  init();\n  mv();\n  return k - 1;\n}\n",
        "b",
    );
}

#[test]
fn critical_sections_are_one_lock_per_name() {
    let region = |body: &str| in_main(&format!("#pragma omp parallel\n  {{\n{body}\n  }}"));
    let racy = [
        // two names, two locks
        (
            "two-names",
            region("#pragma omp critical(x)\n    s += 1;\n#pragma omp critical(y)\n    s += 2;"),
        ),
        // a read outside the section
        (
            "read-outside",
            region("#pragma omp critical\n    s += 1;\n    t = s;"),
        ),
        // a write outside
        (
            "write-outside",
            region("#pragma omp critical\n    t = s;\n    s = 1;"),
        ),
    ];
    let racy: Vec<(&str, &str)> = racy.iter().map(|(n, b)| (*n, b.as_str())).collect();
    assert_none_proved(PRELUDE, &racy);
    // DRB085's shape: a local of `main` summed in an unnamed section; a global in a named
    // one, read after the region
    for body in [
        "int main(void) {\n  int sum = 0;\n#pragma omp parallel\n  {\n#pragma omp critical\n    sum = sum + 1;\n  }\n  return sum;\n}\n",
        "int main(void) {\n#pragma omp parallel\n  {\n#pragma omp critical(x)\n    s += 1;\n  }\n  return s;\n}\n",
    ] {
        let src = format!("{PRELUDE}{body}");
        let p = proof_of_source(&src);
        assert!(p.proved, "{src}\n{:#?}", ladr_report::proof::lines(&p));
    }
}

#[test]
fn row_indices_out_of_their_rows_keep_rows_apart_no_longer() {
    // `c[i][j - 1]` with `j = 0` is `c[i - 1][99]` in memory (DRB014): iterations `i` and
    // `i - 1` meet; so do `c[i][j + 1]` with `j = 99` and `c[i + 1][0]`
    let pf = "#pragma omp parallel for private(j)\n  for (i = 1; i < 99; i++)\n    for (j = 0; j < 100; j++)\n";
    let racy = [
        ("row-underflow", in_main(&format!("{pf}      c[i][j] = c[i][j - 1];"))),
        ("row-overflow", in_main(&format!("{pf}      c[i][j + 1] = c[i][j];"))),
        // a bound the proof cannot read: `s` may exceed the row
        (
            "row-unknown-bound",
            in_main("#pragma omp parallel for private(j)\n  for (i = 1; i < 99; i++)\n    for (j = 0; j < s; j++)\n      c[i][j] = 1;"),
        ),
        // DRB014 itself: a local matrix of variable length
        (
            "row-underflow-vla",
            "int main(void) {\n  int i, j, n = 100, m = 100;\n  double b[n][m];\n#pragma omp parallel for private(j)\n  for (i = 1; i < n; i++)\n    for (j = 0; j < m; j++)\n      b[i][j] = b[i][j - 1];\n  return 0;\n}\n".to_string(),
        ),
    ];
    let racy: Vec<(&str, &str)> = racy.iter().map(|(n, b)| (*n, b.as_str())).collect();
    assert_none_proved(PRELUDE, &racy);
    // within the rows
    assert_worksharing_proves(&in_main(&format!("{pf}      c[i][j] = c[i][j] + 1;")), "c");
    assert_worksharing_proves(
        &in_main("#pragma omp parallel for private(j)\n  for (i = 1; i < 99; i++)\n    for (j = 1; j <= 99; j++)\n      c[i][j] = c[i][j - 1];"),
        "c",
    );
}

#[test]
fn collapsed_loops_tell_their_pairs_apart() {
    let collapse = |body: &str, rows: usize, cols: usize, decl: &str| {
        format!(
            "{decl}\nint main(void) {{\n  int i, j, k;\n#pragma omp parallel for collapse(2)\n  for (i = 0; i < {rows}; i++)\n    for (j = 0; j < {cols}; j++)\n      {body}\n  return 0;\n}}\n"
        )
    };
    let racy = [
        // `c2[i][j + 1]` with `j = 99` is `c2[i + 1][0]`, iteration (i + 1, 0)'s
        (
            "collapse-next-column",
            collapse("c2[i][j] = c2[i][j + 1];", 100, 100, "int c2[100][100];"),
        ),
        // the transpose
        (
            "collapse-transpose",
            collapse("c2[i][j] = c2[j][i];", 100, 100, "int c2[100][100];"),
        ),
        // rows shorter than the inner loop: `r[i][j]` with `j >= 50` is `r[i + 1][j - 50]`
        (
            "collapse-short-rows",
            collapse("r[i][j] = i;", 100, 100, "int r[100][50];"),
        ),
        // one index only: every `j` writes the row `i`'s first element
        (
            "collapse-row-only",
            collapse("c2[i][0] = j;", 100, 100, "int c2[100][100];"),
        ),
        // three loops collapsed, two indices: iterations (i, j, 0) and (i, j, 1) meet
        (
            "collapse-three-two-indices",
            "int c2[10][10];\nint main(void) {\n  int i, j, k;\n#pragma omp parallel for collapse(3)\n  for (i = 0; i < 10; i++)\n    for (j = 0; j < 10; j++)\n      for (k = 0; k < 2; k++)\n        c2[i][j] = k;\n  return 0;\n}\n".to_string(),
        ),
    ];
    let racy: Vec<(&str, &str)> = racy.iter().map(|(n, b)| (*n, b.as_str())).collect();
    assert_none_proved(PRELUDE, &racy);
    // DRB093
    assert_worksharing_proves(
        &collapse("c2[i][j] = c2[i][j] + 1;", 100, 100, "int c2[100][100];"),
        "c2",
    );
    // fewer rows than the matrix has
    assert_worksharing_proves(
        &collapse("c2[i][j] = 1;", 20, 100, "int c2[100][100];"),
        "c2",
    );
}
