//! Constant index tables (`prove/table.rs`) and array starts with constant offsets from
//! one local of `main` (`prove/origin.rs`): `x1[t[i]]` and `x2[t[i]]` with `x2 = x1 + 3`
//! are told apart when no two entries of `t` are equal or 3 apart; racy programs built to
//! fool the rules are not proved.

use crate::prove::{assert_none_proved, proof_of_source};

/// A table `t` of `ENTRIES`, `main` with `x1 = base`, `x2 = SECOND` and a `parallel for`
/// over `i` in `[0, N)` running `BODY` after `int idx = t[i];`.
fn indirect(entries: &str, second: &str, n: usize, body: &str) -> String {
    format!(
        "int t[6] = {{{entries}}};\nint main(void) {{\n  int i;\n  \
         double *base = (double *)malloc(sizeof(double) * 32);\n  if (base == 0)\n    return 1;\n  \
         double *x1 = base;\n  double *x2 = {second};\n\
         #pragma omp parallel for\n  for (i = 0; i < {n}; i++) {{\n    int idx = t[i];\n{body}\n  }}\n  \
         free(base);\n  return 0;\n}}\n"
    )
}

const BOTH: &str = "    x1[idx] += 1.0;\n    x2[idx] += 3.0;";

#[test]
fn table_entries_that_never_collide_are_proved_apart() {
    for src in [
        indirect("0, 1, 2, 8, 9, 10", "base + 3", 6, BOTH),
        // through a chain of copies: x2 = x1 + 3
        indirect("0, 1, 2, 8, 9, 10", "x1 + 3", 6, BOTH),
        // an offset in the index too: x1[idx + 1] against x2[idx] (entry + 1 vs entry + 3)
        indirect(
            "0, 4, 8, 12, 16, 20",
            "base + 3",
            6,
            "    x1[idx + 1] += 1.0;\n    x2[idx] += 3.0;",
        ),
    ] {
        let p = proof_of_source(&src);
        assert!(p.proved, "{src}\n{:#?}", ladr_report::proof::lines(&p));
    }
}

#[test]
fn racy_tables_are_not_proved() {
    let racy: Vec<(&str, String)> = vec![
        // entries 2 and 5 collide through the second start (base + 3)
        (
            "collide",
            indirect("0, 1, 2, 5, 9, 10", "base + 3", 6, BOTH),
        ),
        // one entry twice
        (
            "repeated",
            indirect("0, 1, 2, 2, 9, 10", "base + 3", 6, "    x1[idx] += 1.0;"),
        ),
        // entries past the list are 0: `int t[6] = {1, 2}` has 0 four times
        (
            "zero-fill",
            indirect("1, 2", "base + 3", 6, "    x1[idx] += 1.0;"),
        ),
        // the second start moved by main before the team: base + 3, then base + 2
        (
            "moved-start",
            indirect("0, 1, 2, 8, 9, 10", "base + 3;\n  x2 = base + 2", 6, BOTH),
        ),
        // ... or in a branch
        (
            "moved-start-in-branch",
            indirect(
                "0, 1, 2, 8, 9, 10",
                "base + 3;\n  if (rand())\n    x2 = base + 2",
                6,
                BOTH,
            ),
        ),
        // the table written by a thread while the team runs
        (
            "written-table",
            indirect(
                "0, 1, 2, 8, 9, 10",
                "base + 3",
                6,
                "    x1[idx] += 1.0;\n    t[5] = 1;",
            ),
        ),
        // the index local written again in the body
        (
            "moved-index",
            indirect(
                "0, 1, 2, 8, 9, 10",
                "base + 3",
                6,
                "    idx = idx / 2;\n    x1[idx] += 1.0;",
            ),
        ),
    ];
    let racy: Vec<(&str, &str)> = racy.iter().map(|(n, s)| (*n, s.as_str())).collect();
    assert_none_proved("", &racy);
}

/// A loop past the table's end reads an entry that is not there (undefined: any value).
#[test]
fn a_loop_past_the_table_is_not_proved() {
    let src = indirect("0, 1, 2, 8, 9, 10", "base + 3", 7, BOTH);
    assert!(!proof_of_source(&src).proved, "{src}");
}
