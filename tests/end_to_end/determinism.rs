//! The same answer every run (issue 32): for the same input and options the verdict, the
//! races, their order, the bounds, the interleavings and the deepening schedule are the same
//! with `--jobs 1` and `--jobs 2` — the race reported is that of the earliest bound pair
//! (and swarm instance) in schedule order, even when a later one finished first. Only the
//! times (`stats`) may differ.

use super::ladr;
use serde_json::Value;

/// `ladr FILE --format json` with deepening under a generous time limit (the schedule's
/// pairs run at once with two jobs) and two swarm instances per pair, less its times.
fn answer(file: &str, jobs: &str) -> Value {
    let path = format!("tests/e2e/{file}");
    let args = [
        path.as_str(),
        "--format",
        "json",
        "--deepen",
        "--timeout",
        "600",
        "--swarm",
        "2",
        "--jobs",
        jobs,
    ];
    let (code, out, err) = ladr(&args);
    assert!(code == 0 || code == 1, "{file}: exit {code}\n{out}{err}");
    let mut v: Value = serde_json::from_str(&out).expect("JSON on stdout");
    let doc = v.as_object_mut().expect("an object");
    for timed in ["stats", "tool", "time_limit_s"] {
        doc.remove(timed);
    }
    // When each bound pair answered is a time, not part of the answer.
    if let Some(pairs) = doc
        .get_mut("deepening")
        .and_then(|d| d.get_mut("schedule"))
        .and_then(Value::as_array_mut)
    {
        for pair in pairs {
            pair.as_object_mut().map(|p| p.remove("done_s"));
        }
    }
    v
}

#[test]
fn the_answer_is_the_same_with_one_job_and_with_two() {
    // Programs with several racing pairs, races found by several swarm instances and at
    // every bound pair of the schedule, and a race-free one (the whole schedule runs).
    for file in [
        "two_races_racy.c",
        "callback_racy.c",
        "confined_racy.c",
        "solo_main_racy.c",
        "static_local_helper_racy.c",
        "heap_arg_racy.c",
        "mutex_racy.c",
        "mutex_free.c",
    ] {
        let one = answer(file, "1");
        for _ in 0..2 {
            let two = answer(file, "2");
            assert_eq!(
                one,
                two,
                "{file}: --jobs 1 and --jobs 2 differ:\n{}\n{}",
                serde_json::to_string_pretty(&one).unwrap(),
                serde_json::to_string_pretty(&two).unwrap()
            );
        }
    }
}
