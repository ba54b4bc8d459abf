//! Bounds for real programs (issue 33): `--max-threads` (threads beyond it are not created,
//! a `threads` cut, never `true` in SV-COMP mode), loops that only wait (no `loop` cut).

use super::ladr;

/// The JSON answer of `ladr FILE --format json ARGS…`.
fn json(file: &str, args: &[&str]) -> serde_json::Value {
    let mut all = vec![file, "--format", "json"];
    all.extend_from_slice(args);
    let (code, out, err) = ladr(&all);
    assert!(code <= 1, "{file} {args:?}: exit {code}\n{out}{err}");
    serde_json::from_str(&out).unwrap_or_else(|e| panic!("{e}: {out}"))
}

fn cuts(v: &serde_json::Value) -> Vec<String> {
    v["bounds"]["cuts"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c.as_str().unwrap().to_string())
        .collect()
}

/// Both programs create four workers in a loop, then a fifth thread that writes `x`; the
/// racy one reads `x` in `main` without joining it. With the default bound (4 threads) the
/// fifth is not created: "no race", stated as a `threads` cut; with `--max-threads 5` the
/// race is found, and the twin that joins first has none, with no `threads` cut.
#[test]
fn threads_beyond_the_bound_are_cut_and_said() {
    let v = json("tests/e2e/max_threads_racy.c", &[]);
    assert_eq!(v["verdict"], "no-race", "{v}");
    assert!(cuts(&v).contains(&"threads".to_string()), "{v}");
    assert_eq!(v["stats"]["slots"], 5, "{v}");
    let (_, text, _) = ladr(&["tests/e2e/max_threads_racy.c"]);
    assert!(
        text.contains("the bounds cut the program: threads"),
        "{text}"
    );

    let v = json("tests/e2e/max_threads_racy.c", &["--max-threads", "5"]);
    assert_eq!(v["verdict"], "race", "{v}");
    assert!(!cuts(&v).contains(&"threads".to_string()), "{v}");
    let mut lines: Vec<u64> = (0..2)
        .map(|k| v["races"][0]["accesses"][k]["line"].as_u64().unwrap())
        .collect();
    lines.sort();
    assert_eq!(lines, vec![5, 12], "{v}");
    assert_eq!(v["stats"]["slots"], 6, "{v}");

    let v = json("tests/e2e/max_threads_free.c", &["--max-threads", "5"]);
    assert_eq!(v["verdict"], "no-race", "{v}");
    assert!(!cuts(&v).contains(&"threads".to_string()), "{v}");
    let v = json("tests/e2e/max_threads_free.c", &[]);
    assert_eq!(v["verdict"], "no-race", "{v}");
    assert!(cuts(&v).contains(&"threads".to_string()), "{v}");
}

/// SV-COMP's `true` claims every execution: a `threads` cut makes a "no race" `unknown`,
/// and without `--max-threads` SV-COMP mode creates every thread (up to the model's 63).
#[test]
fn svcomp_mode_never_answers_true_past_a_thread_bound() {
    let dir = tempfile::tempdir().unwrap();
    let prp = dir.path().join("no-data-race.prp");
    std::fs::write(&prp, "CHECK( init(main()), LTL(G ! data-race) )\n").unwrap();
    let prp = prp.to_str().unwrap();
    let svcomp = |file: &str, more: &[&str]| {
        let mut args = vec![file, "--svcomp", "--property-file", prp];
        args.extend_from_slice(more);
        let (code, out, err) = ladr(&args);
        (code, out.trim_end().lines().last().map(str::to_string), err)
    };
    let (code, last, err) = svcomp("tests/e2e/max_threads_free.c", &["--max-threads", "4"]);
    assert_eq!(code, 3, "{last:?}{err}");
    assert_eq!(last.as_deref(), Some("SV-COMP result: unknown"));
    let (code, last, err) = svcomp("tests/e2e/max_threads_free.c", &[]);
    assert_eq!(code, 0, "{last:?}{err}");
    assert_eq!(last.as_deref(), Some("SV-COMP result: true"));
    let (code, last, err) = svcomp("tests/e2e/max_threads_racy.c", &[]);
    assert_eq!(code, 1, "{last:?}{err}");
    assert_eq!(last.as_deref(), Some("SV-COMP result: false(no-data-race)"));
}

/// A condition-variable loop (`while (!ready) pthread_cond_wait(&cv, &m);`) only waits: it
/// is one copy with its exit assumed, not a `loop` cut. The producer that writes `data`
/// after unlocking races with `main`'s read after the loop; the one that writes it under
/// the lock does not, and its "no race" has no cut at all.
#[test]
fn a_loop_that_only_waits_is_no_loop_cut() {
    let v = json("tests/e2e/wait_loop_racy.c", &[]);
    assert_eq!(v["verdict"], "race", "{v}");
    let mut lines: Vec<u64> = (0..2)
        .map(|k| v["races"][0]["accesses"][k]["line"].as_u64().unwrap())
        .collect();
    lines.sort();
    assert_eq!(lines, vec![10, 19], "{v}");
    let v = json("tests/e2e/wait_loop_free.c", &[]);
    assert_eq!(v["verdict"], "no-race", "{v}");
    assert_eq!(v["bounds"]["cuts"], serde_json::json!([]), "{v}");
    // At no unwinding at all the wait still runs once: the same answer.
    let v = json("tests/e2e/wait_loop_free.c", &["--unwind", "0"]);
    assert_eq!(v["verdict"], "no-race", "{v}");
    assert_eq!(v["bounds"]["cuts"], serde_json::json!([]), "{v}");
}

/// A set-up loop of `main` that calls nothing and is small enough (a 3 × 64 nest over list
/// heads, 300 stores through a pointer member into a heap block) is copied whole: exact, so
/// the race that needs the values it stores is found, and the twin whose thread writes only
/// if they differ has none. Before, both loops' cuts made both checks vacuous (unknown).
#[test]
fn small_setup_loops_are_copied_whole() {
    crate::racy("setup_whole_racy.c", (10, 14));
    crate::free("setup_whole_free.c");
}

/// The prefix probe's cut (`Options::prefix`, `deepen::prefix_probe`): each thread runs at
/// most its first N visible statements and then waits for ever. A race within the prefix
/// is found (the worker's first write against `main`'s read: its label 0 is the thread's
/// start, the write label 1, so a prefix of 2 holds it and 1 does not); the lock-protected
/// twin has no race at any cut, also one inside the worker's critical section, where it
/// waits for ever holding the lock.
#[test]
fn a_prefix_cut_keeps_the_races_before_it_and_adds_none() {
    use super::checked::{check, e2e};
    let at = |n: u32| ladr_ir::program::Options {
        prefix: Some(n),
        racefree: false,
        ..Default::default()
    };
    let chk = check(&e2e("prefix_racy.c"), &at(2), None);
    super::assert_racy("prefix_racy.c", &chk, &[(6, 15)]);
    let chk = check(&e2e("prefix_racy.c"), &at(1), None);
    assert_eq!(chk.json_value["verdict"], "no-race", "{}", chk.json);
    for n in 1..=5 {
        let chk = check(&e2e("prefix_free.c"), &at(n), None);
        assert_eq!(
            chk.json_value["verdict"], "no-race",
            "prefix {n}: {}",
            chk.json
        );
    }
    super::racy("prefix_racy.c", (6, 15));
    super::free("prefix_free.c");
}
