//! The static proof's verdicts on single objects in the bounded check (issue 30, item 2):
//! where the proof leaves some pairs open, the objects it proves race-free are not
//! instrumented and statements touching only them are not visible, and the pairs left
//! open are still checked — the race found on the same lines, the race-free twin found
//! race-free.

use super::{ladr, ladr_proving};

/// (verdict, proved, instrumented accesses, visible statements, racing lines) of `file`
/// checked with the proof (`proving`) or with `--no-prove`.
fn stats(file: &str, proving: bool) -> (String, bool, u64, u64, Vec<Vec<u64>>) {
    let path = format!("tests/e2e/{file}");
    let args = [path.as_str(), "--format", "json"];
    let (_, json, err) = if proving {
        ladr_proving(&args)
    } else {
        ladr(&args)
    };
    let v: serde_json::Value =
        serde_json::from_str(&json).unwrap_or_else(|e| panic!("{file}: {e}\n{json}{err}"));
    let lines = super::races_lines(&v);
    (
        v["verdict"].as_str().unwrap().to_string(),
        v["proved"].as_bool().unwrap(),
        v["stats"]["instrumented_accesses"].as_u64().unwrap(),
        v["stats"]["visible_statements"].as_u64().unwrap(),
        lines,
    )
}

/// `acct.balance` (and `acct.done`) always under `acct.lock`, a lock inside a struct the
/// pre-analysis `racefree` cannot use: the proof shows `acct` race-free, `result` it
/// cannot. With the proof, `acct`'s accesses are neither instrumented nor visible; the
/// race on `result` is found between the same lines.
#[test]
fn a_partial_proof_drops_the_proved_objects_and_the_race_left_is_found() {
    let (verdict, proved, with, visible_with, lines) = stats("partial_proof_racy.c", true);
    let (verdict0, _, without, visible_without, lines0) = stats("partial_proof_racy.c", false);
    assert_eq!((verdict.as_str(), verdict0.as_str()), ("race", "race"));
    assert!(!proved);
    assert_eq!(lines, vec![vec![11, 20]]);
    assert_eq!(lines0, lines);
    // `result`'s write and read only; without the proof also `acct.balance`'s four.
    assert_eq!((with, without), (2, 6));
    assert!(
        visible_with < visible_without,
        "{visible_with} {visible_without}"
    );
}

/// The race-free twin: `result` handed over through `acct.done` under the lock, which the
/// proof cannot follow, CBMC can. Still "no race" (within the bounds, not proved), with
/// fewer accesses to check.
#[test]
fn a_partial_proof_keeps_the_bounded_no_race_of_the_pairs_left() {
    let (verdict, proved, with, visible_with, _) = stats("partial_proof_free.c", true);
    let (verdict0, _, without, visible_without, _) = stats("partial_proof_free.c", false);
    assert_eq!(
        (verdict.as_str(), verdict0.as_str()),
        ("no-race", "no-race")
    );
    assert!(!proved);
    assert_eq!((with, without), (2, 8));
    assert!(
        visible_with < visible_without,
        "{visible_with} {visible_without}"
    );
}

/// `sv` is only read while the threads run (proved read-only), but `close(sv[1])` ends
/// `main`'s wait on the byte channel: a call, so its statement stays visible (a release
/// for `race`) although it names only proved objects. Made plain, `main`'s read of
/// `result` after the wait raced with the worker's write.
#[test]
fn a_statement_with_a_call_stays_visible_though_it_names_only_proved_objects() {
    let (verdict, proved, with, visible_with, lines) = stats("socketpair_free.c", true);
    let (_, _, without, visible_without, _) = stats("socketpair_free.c", false);
    assert_eq!(verdict, "no-race", "{lines:?}");
    assert!(!proved);
    assert!(with < without, "{with} {without}");
    assert_eq!(visible_with, visible_without);
}
