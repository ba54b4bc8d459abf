//! The proof's OpenMP team barriers (`prove/team_barrier.rs`) and loop bounds of constant
//! globals (`prove/bounds.rs`): racy programs built to fool them are never proved, and
//! they prove the kernels they are for.

use crate::prove::{assert_none_proved, proof_of_source};

/// Arrays, a matrix, bounds never written and one that is.
const PRELUDE: &str = "#include <omp.h>\nint a[100]; int b[100]; double c[100][100]; double d[100][100];\nint nr = 100, nc = 100, w = 100; int s; int arg_pick(void);\nvoid grow(void) { w = 200; }\n";

/// `main` around a region: `REGION` is replaced.
fn in_main(region: &str) -> String {
    format!("int main(void) {{\n  int i, j, t;\n{region}\n  return 0;\n}}\n")
}

/// A region of two statements separated by `between`.
fn two(first: &str, between: &str, second: &str) -> String {
    in_main(&format!(
        "#pragma omp parallel private(t)\n  {{\n{first}\n{between}\n{second}\n  }}"
    ))
}

const FOR_I: &str = "#pragma omp for\n    for (i = 0; i < 100; i++)";
const FOR_I_NOWAIT: &str = "#pragma omp for nowait\n    for (i = 0; i < 100; i++)";

/// Racy programs: each has an execution in which two threads access one element, at
/// least one of them writing, at once.
fn racy() -> Vec<(&'static str, String)> {
    vec![
        // no barrier between the loops: iteration 5 of the second may run beside the first's
        (
            "nowait",
            two(&format!("{FOR_I_NOWAIT} a[i] = i;"), "", &format!("{FOR_I} b[i] = a[99 - i];")),
        ),
        // a barrier only thread 0 passes (non-conforming): its round completes with the
        // other thread's first straight barrier, so thread 1 reads `a[0]` after it while
        // thread 0 still writes it before its own
        (
            "barrier-in-branch",
            two(
                "if (omp_get_thread_num() == 0) {\n#pragma omp barrier\n}\n#pragma omp critical\n    a[0] = a[0] + 1;",
                "#pragma omp barrier",
                "t = a[0];",
            ),
        ),
        // a barrier in a loop of as many rounds as the thread's number: the same
        (
            "barrier-in-loop",
            two(
                "for (t = 0; t < omp_get_thread_num(); t++) {\n#pragma omp barrier\n}\n#pragma omp critical\n    a[0] = a[0] + 1;",
                "#pragma omp barrier",
                "t = a[0];",
            ),
        ),
        // an orphaned barrier, in a function the region calls (by thread 0 only)
        (
            "barrier-in-callee",
            format!(
                "void wait_all(void) {{\n#pragma omp barrier\n}}\n{}",
                two(
                    "if (omp_get_thread_num() == 0) wait_all();\n#pragma omp critical\n    a[0] = a[0] + 1;",
                    "#pragma omp barrier",
                    "t = a[0];",
                )
            ),
        ),
        // within one phase, every thread writes a[0]
        (
            "same-phase",
            two("t = a[0];", "#pragma omp barrier", "a[0] = t; a[1] = a[0];"),
        ),
        // a goto back over the barrier: thread 1 writes `a[0]` again, in its critical
        // section, while thread 0 reads it after the barrier
        (
            "goto-back",
            in_main("#pragma omp parallel private(t)\n  {\n  again:\n#pragma omp critical\n    a[0] = a[0] + 1;\n#pragma omp barrier\n    t = a[0];\n    if (t < 4 && arg_pick()) goto again;\n  }"),
        ),
        // `single nowait`: one thread writes while the others read, in one phase
        ("single-nowait", two("#pragma omp single nowait\n    s = 1;", "", "t = s;")),
        // two `single` blocks without a barrier between them: two threads may run them
        (
            "two-singles",
            two(
                "#pragma omp single nowait\n    s = 1;",
                "",
                "#pragma omp single\n    s = 2;",
            ),
        ),
        // a goto back over a `single`: thread 1 takes tickets 1 and then 0 and runs the
        // block while thread 0 still runs it with its ticket 0
        (
            "single-goto-back",
            in_main("#pragma omp parallel private(t)\n  {\n  again:\n    t = 0;\n#pragma omp single nowait\n    s = s + 1;\n    if (arg_pick()) goto again;\n  }"),
        ),
        // the bound of the inner loop is a global some function writes: `j` may leave the row
        (
            "written-bound",
            in_main("grow();\n#pragma omp parallel for private(j)\n  for (i = 1; i < 99; i++)\n    for (j = 0; j < w; j++)\n      c[i][j] = 1;"),
        ),
        // `nc` rows to the next: c[i][j + 1] with j = 99 is c[i + 1][0]
        (
            "bound-over",
            in_main("#pragma omp parallel for private(j)\n  for (i = 0; i < 99; i++)\n    for (j = 0; j < nc; j++)\n      c[i][j + 1] = c[i][j];"),
        ),
        // a local `nc` shadows the global bound
        (
            "bound-shadowed",
            "int main(void) {\n  int i, j, nc = arg_pick();\n#pragma omp parallel for private(j)\n  for (i = 1; i < 99; i++)\n    for (j = 0; j < nc; j++)\n      c[i][j] = c[i - 1][j];\n  return 0;\n}\n".to_string(),
        ),
        // the inner loop's counter redeclared in its body, uninitialised: that `j` is any value
        (
            "counter-redeclared",
            in_main("#pragma omp parallel for private(j)\n  for (i = 1; i < 99; i++)\n    for (j = 0; j < 100; j++) {\n      int j;\n      c[i][j] = 1;\n    }"),
        ),
    ]
}

#[test]
fn racy_programs_built_to_fool_team_barriers_and_bounds_are_not_proved() {
    let programs = racy();
    let programs: Vec<(&str, &str)> = programs.iter().map(|(n, b)| (*n, b.as_str())).collect();
    assert_none_proved(PRELUDE, &programs);
}

fn assert_proved_by(body: &str, object: &str, rules: &[&str]) {
    crate::prove::assert_proved_by(PRELUDE, body, object, rules);
}

#[test]
fn team_barriers_order_the_phases_of_a_region() {
    // a scalar read by every thread, then written by every thread after the barrier
    // (racy without it: `same-phase`); the write is racy on its own, so the proof fails on
    // it, not on the read
    let p = proof_of_source(&format!(
        "{PRELUDE}{}",
        two("t = s;", "#pragma omp barrier", "s = t;")
    ));
    let lines = ladr_report::proof::lines(&p);
    assert!(
        lines.iter().any(|l| l.contains("not proved `s`")
            && l.contains("a write in")
            && !l.contains("a read in")),
        "{lines:#?}"
    );
    // the twin of `barrier-in-branch`, `-in-loop`, `-in-callee` and `goto-back`: each
    // thread adds to `a[0]` under a lock, all read it after the barrier
    assert_proved_by(
        &two(
            "#pragma omp critical\n    a[0] = a[0] + 1;",
            "#pragma omp barrier",
            "t = a[0];",
        ),
        "a",
        &["per-pair"],
    );
    // the implicit barrier of the first loop (DRB058's shape)
    assert_proved_by(
        &two(
            &format!("{FOR_I} a[i] = i;"),
            "",
            &format!("{FOR_I} b[i] = a[99 - i];"),
        ),
        "a",
        &["worksharing", "team-barrier"],
    );
    // an explicit barrier after `nowait` (DRB104's shape), in nested blocks
    assert_proved_by(
        &two(
            &format!("{{\n{FOR_I_NOWAIT} a[i] = i;\n}}"),
            "#pragma omp barrier",
            "{ t = a[omp_get_thread_num()]; }",
        ),
        "a",
        &["worksharing", "team-barrier"],
    );
}

#[test]
fn single_blocks_run_on_one_thread_of_a_team() {
    // DRB077: a `single` block's increment
    assert_proved_by(
        &two("#pragma omp single\n    s = s + 1;", "", "t = 0;"),
        "s",
        &["team-barrier"],
    );
    // DRB104: a loop without its barrier, an explicit one, then a `single`
    assert_proved_by(
        &two(
            &format!("{FOR_I_NOWAIT} a[i] = i;\n#pragma omp barrier"),
            "",
            "#pragma omp single\n    s = a[9] + 1;",
        ),
        "s",
        &["team-barrier"],
    );
}

#[test]
fn loops_bounded_by_constant_globals_keep_their_rows() {
    // DRB057, DRB063, DRB064: `j < nc`, `j < nc - 1` with `nc` never written; the counter
    // declared twice in the function (each loop's `private(j)`)
    let pf = "#pragma omp parallel for private(j)\n  for (i = 0; i < nr; i++)\n";
    assert_proved_by(
        &in_main(&format!(
            "{pf}    for (j = 0; j < nc - 1; j++)\n      c[i][j] = c[i][j + 1];\n{pf}    for (j = 1; j < nc; j++)\n      d[i][j] = d[i][j - 1];"
        )),
        "c",
        &["worksharing"],
    );
}
