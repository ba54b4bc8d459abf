//! `ladr eval`: the reports on a fixed result set (snapshots), and one real run of the
//! `ladr` binary with CBMC on a directory of two tasks. The real run needs CBMC
//! (scripts/install-cbmc); it fails without it.

use ladr_eval::stats::{ratio_text, size_ratio};
use ladr_eval::{
    compare, problems, stats_table, table, Answer, Run, Status, Tally, TaskResult, TaskStats,
};
use std::path::Path;
use std::process::Command;

fn result(task: &str, expected: bool, answer: Answer, secs: f64) -> TaskResult {
    let status = Status::of(expected, answer);
    TaskResult {
        task: task.into(),
        subfolder: task.split('/').next().unwrap().into(),
        input: task.replace(".yml", ".i"),
        expected,
        answer,
        status,
        exit_code: match answer {
            Answer::True => Some(0),
            Answer::False => Some(1),
            Answer::Unknown => None,
            Answer::Error => Some(2),
        },
        reason: match status {
            Status::Error => Some("error[unsupported]: inline assembly at x.i:12:3".into()),
            Status::Unknown => Some("killed after 30 s (wall-clock limit)".into()),
            Status::WrongFalse => Some("race: write of `x` at a.i:3:5 ...".into()),
            _ => Some("no race found within 2 rounds and 2 unwindings".into()),
        },
        wall_s: secs,
        cpu_s: secs * 0.9,
        peak_mb: Some(100.0),
        stats: None,
    }
}

fn old_results() -> Vec<TaskResult> {
    use Answer::*;
    vec![
        result("pthread/a.yml", true, True, 1.5),
        result("pthread/b.yml", false, False, 2.0),
        result("pthread/c.yml", false, Unknown, 30.0),
        result("pthread-lit/d.yml", true, Error, 0.1),
        result("pthread-lit/e.yml", false, True, 3.25),
        result("weaver/f.yml", true, False, 4.0),
        result("weaver/gone.yml", true, True, 1.0),
    ]
}

fn new_results() -> Vec<TaskResult> {
    use Answer::*;
    vec![
        result("pthread/a.yml", true, True, 1.25),
        result("pthread/b.yml", false, False, 2.0),
        result("pthread/c.yml", false, False, 12.0),
        result("pthread-lit/d.yml", true, Unknown, 30.0),
        result("pthread-lit/e.yml", false, True, 3.0),
        proved(result("weaver/f.yml", true, True, 4.0)),
        result("weaver/new.yml", true, Unknown, 30.0),
    ]
}

/// `r` answered by the static proof (no CBMC run).
fn proved(mut r: TaskResult) -> TaskResult {
    r.stats = Some(TaskStats {
        proved: true,
        ..TaskStats::default()
    });
    r
}

/// `r` with measures: translation and CBMC seconds, clauses (variables: twice as many),
/// visible statements, accesses, at bounds (2, 2).
fn with_stats(mut r: TaskResult, t: f64, c: f64, clauses: Option<u64>, visible: u64) -> TaskResult {
    r.stats = Some(TaskStats {
        translate_s: t,
        cbmc_s: c,
        slots: 3,
        visible_statements: visible,
        instrumented_accesses: Some(visible / 2),
        formula_variables: clauses.map(|c| c * 2),
        formula_clauses: clauses,
        rounds: Some(2),
        unwind: Some(2),
        proved: false,
    });
    r
}

/// The old results with measures for some tasks (c: timed out before the formula; d and
/// gone: none).
fn old_with_stats() -> Vec<TaskResult> {
    let mut rs = old_results();
    rs[0] = with_stats(rs[0].clone(), 0.25, 1.0, Some(1000), 10);
    rs[1] = with_stats(rs[1].clone(), 0.75, 2.0, Some(3000), 20);
    rs[2] = with_stats(rs[2].clone(), 0.5, 30.0, None, 40);
    rs[4] = with_stats(rs[4].clone(), 0.5, 3.0, Some(500), 6);
    rs[5] = with_stats(rs[5].clone(), 1.0, 4.0, Some(7000), 8);
    rs
}

#[test]
fn stats_table_snapshot() {
    insta::assert_snapshot!(stats_table(&old_with_stats()));
    // Results without measures (an older results file): counted, no means.
    let t = stats_table(&old_results());
    assert!(
        t.contains("| total       |     7 |     0 |       0 |"),
        "{t}"
    );
}

#[test]
fn ratio_of_mean_clauses() {
    let old = old_with_stats();
    let mut new = new_results();
    // a: 1000 → 500; b: 3000 → 1500; c: no formula before, one now (left out); e: other
    // bounds (left out); f: 7000 → 7000.
    new[0] = with_stats(new[0].clone(), 0.2, 0.5, Some(500), 10);
    new[1] = with_stats(new[1].clone(), 0.2, 0.5, Some(1500), 10);
    new[2] = with_stats(new[2].clone(), 0.2, 0.5, Some(100), 10);
    new[4] = with_stats(new[4].clone(), 0.2, 0.5, Some(100), 10);
    new[4].stats.as_mut().unwrap().rounds = Some(3);
    new[5] = with_stats(new[5].clone(), 0.2, 0.5, Some(7000), 10);
    let r = size_ratio(&old, &new).unwrap();
    assert_eq!((r.tasks, r.other_bounds), (3, 1));
    assert_eq!(
        (r.old_clauses, r.new_clauses),
        (11000.0 / 3.0, 9000.0 / 3.0)
    );
    assert!((r.clauses() - 9.0 / 11.0).abs() < 1e-12);
    assert!((r.variables() - 9.0 / 11.0).abs() < 1e-12);
    insta::assert_snapshot!(ratio_text(&old, &new, "old.json"));
    assert_eq!(size_ratio(&old_results(), &new), None);
}

#[test]
fn results_without_stats_still_read() {
    // A results file of an older eval: no `stats` per task, no `ladr` in the settings.
    let text = r#"{"settings":{"ladr_version":"0.1.0","date":1,"dir":"d","filter":null,
        "rounds":2,"unwind":2,"timeout_s":20.0,"memory_mb":4000,"jobs":1,"cbmc":"cbmc"},
        "complete":true,"elapsed_s":1.0,"cpu_s":1.0,"tasks":[{"task":"s/a.yml",
        "subfolder":"s","input":"s/a.i","expected":true,"answer":"true",
        "status":"correct-true","exit_code":0,"reason":"no race","wall_s":1.0,"cpu_s":0.9,
        "peak_mb":10.0}]}"#;
    let run: Run = serde_json::from_str(text).unwrap();
    assert_eq!(run.tasks[0].stats, None);
    assert_eq!(run.settings.ladr, None);
    // Written without a `stats` key when there are none.
    let again = serde_json::to_string(&run.tasks[0]).unwrap();
    assert!(!again.contains("stats"), "{again}");
}

#[test]
fn tally_and_score() {
    let t = Tally::of(&old_results());
    assert_eq!(
        (t.correct_true, t.correct_false, t.wrong_true, t.wrong_false),
        (2, 1, 1, 1)
    );
    assert_eq!((t.unknown, t.error, t.tasks()), (1, 1, 7));
    assert_eq!(t.score, 2 + 1 + 2 - 32 - 16);
    assert_eq!(t.proved, 0);
    assert_eq!(Tally::of(&new_results()).proved, 1);
}

#[test]
fn table_counts_the_proved_tasks() {
    let t = table(&new_results());
    let header = t.lines().next().unwrap();
    assert!(header.contains("| proved |"), "{t}");
    let weaver = t.lines().find(|l| l.starts_with("| weaver")).unwrap();
    let cells: Vec<&str> = weaver.split('|').map(str::trim).collect();
    // subfolder, correct true, proved.
    assert_eq!(&cells[1..4], &["weaver", "1", "1"], "{t}");
    let pthread = t.lines().find(|l| l.starts_with("| pthread ")).unwrap();
    assert_eq!(pthread.split('|').map(str::trim).nth(3), Some("0"), "{t}");
}

#[test]
fn table_snapshot() {
    insta::assert_snapshot!(table(&old_results()));
}

#[test]
fn problems_snapshot() {
    insta::assert_snapshot!(problems(&old_results()));
    assert_eq!(problems(&new_results()[..2]), "");
}

#[test]
fn compare_snapshot() {
    insta::assert_snapshot!(compare(&old_results(), &new_results(), "old.json"));
    let same = compare(&old_results(), &old_results(), "old.json");
    assert!(same.contains("  none\n"), "{same}");
}

const RACY: &str = r#"#include <pthread.h>
int counter;
void *worker(void *arg) { counter = counter + 1; return 0; }
int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, worker, 0);
  pthread_create(&b, 0, worker, 0);
  pthread_join(a, 0);
  pthread_join(b, 0);
  return 0;
}
"#;

const SAFE: &str = r#"#include <pthread.h>
int counter;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
void *worker(void *arg) {
  pthread_mutex_lock(&m);
  counter = counter + 1;
  pthread_mutex_unlock(&m);
  return 0;
}
int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, worker, 0);
  pthread_create(&b, 0, worker, 0);
  pthread_join(a, 0);
  pthread_join(b, 0);
  return 0;
}
"#;

fn task_yml(input: &str, expected: bool) -> String {
    format!(
        "format_version: '2.0'\n\
         input_files: ['{input}']\n\
         properties:\n\
         #  - property_file: ../properties/unreach-call.prp\n\
         #    expected_verdict: true\n\
         \x20 - property_file: ../properties/no-data-race.prp\n\
         \x20   expected_verdict: {expected}\n\
         options:\n\
         \x20 language: C\n\
         \x20 data_model: ILP32\n"
    )
}

/// Two tasks, one racy and one race-free, both answered correctly by a real run.
#[test]
fn end_to_end_two_tasks() {
    let dir = tempfile::tempdir().unwrap();
    write_two_tasks(dir.path());
    let out_json = dir.path().join("results.json");
    let run = eval_two_tasks(dir.path(), &out_json);
    assert_task_measures(&run);
    assert_task_reasons(&run);
    assert_stats_tables(dir.path(), &out_json);
    assert_compare_with_itself(dir.path(), &out_json, &run);
}

/// The directory of [`end_to_end_two_tasks`]: `counters/` with a racy and a safe task, and
/// a task of another property.
fn write_two_tasks(dir: &Path) {
    let sub = dir.join("counters");
    std::fs::create_dir(&sub).unwrap();
    std::fs::write(sub.join("racy.c"), RACY).unwrap();
    std::fs::write(sub.join("racy.yml"), task_yml("racy.c", false)).unwrap();
    std::fs::write(sub.join("safe.c"), SAFE).unwrap();
    std::fs::write(sub.join("safe.yml"), task_yml("safe.c", true)).unwrap();
    // Not a data-race task: ignored.
    std::fs::write(
        sub.join("other.yml"),
        "input_files: racy.c\nproperties:\n  - property_file: ../properties/unreach-call.prp\n    expected_verdict: true\n",
    )
    .unwrap();
}

/// `ladr eval` on the two tasks (2 jobs): both answered correctly; the results file read back.
fn eval_two_tasks(dir: &Path, out_json: &Path) -> Run {
    let out = Command::new(env!("CARGO_BIN_EXE_ladr"))
        .arg("eval")
        .arg(dir)
        .args(["--jobs", "2", "--timeout", "120", "--out"])
        .arg(out_json)
        .output()
        .expect("run ladr eval");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(
        out.status.code(),
        Some(0),
        "stdout:\n{stdout}\nstderr:\n{stderr}"
    );
    let run: Run = serde_json::from_str(&std::fs::read_to_string(out_json).unwrap()).unwrap();
    assert!(run.complete);
    assert_eq!(run.settings.jobs, 2);
    let got: Vec<(&str, &str, Status)> = run
        .tasks
        .iter()
        .map(|t| (t.task.as_str(), t.subfolder.as_str(), t.status))
        .collect();
    assert_eq!(
        got,
        [
            ("counters/racy.yml", "counters", Status::CorrectFalse),
            ("counters/safe.yml", "counters", Status::CorrectTrue),
        ],
        "stdout:\n{stdout}\nstderr:\n{stderr}"
    );
    assert!(stdout.contains("| counters "), "{stdout}");
    assert!(stdout.contains("| total "), "{stdout}");
    assert!(stderr.contains("[2/2]"), "{stderr}");
    run
}

/// Every task has its measures from ladr's JSON document. The racy one instruments the
/// accesses of `counter` and CBMC solved a formula; in the safe one every access of
/// `counter` is under the mutex, so the static analysis proves it (no CBMC run).
fn assert_task_measures(run: &Run) {
    for t in &run.tasks {
        let s = t
            .stats
            .as_ref()
            .unwrap_or_else(|| panic!("no stats: {t:?}"));
        if t.expected {
            // The static analysis proves the safe task: no CBMC, no slots.
            assert!(s.proved && s.cbmc_s == 0.0 && s.slots == 0, "{t:?}");
            continue;
        }
        assert!(!s.proved, "{t:?}");
        assert!(s.translate_s > 0.0 && s.cbmc_s > 0.0, "{t:?}");
        assert!(s.visible_statements > 0 && s.slots == 3, "{t:?}");
        assert!(s.rounds.is_some_and(|r| r >= 2), "{t:?}");
        assert!(s.instrumented_accesses.is_some_and(|n| n >= 2), "{t:?}");
        assert!(s.formula_variables.is_some_and(|n| n > 0), "{t:?}");
        assert!(s.formula_clauses.is_some_and(|n| n > 0), "{t:?}");
    }
}

/// The reason is the one-line verdict of ladr (`ladr_report::text::summary`), built from
/// the JSON document: for a race both accesses, for no race the text output's first line.
fn assert_task_reasons(run: &Run) {
    let racy = &run.tasks[0];
    let reason = racy.reason.as_deref().unwrap_or_default();
    // Either access of `counter++` may be C1's (its read or its write: CBMC picks one).
    assert!(
        reason.starts_with("race: ") && reason.contains(" of `counter` at "),
        "{reason}"
    );
    assert!(reason.contains("racy.c:3:"), "{reason}");
    assert!(
        reason.contains(" in thread 1") && reason.contains(" in thread 2"),
        "{reason}"
    );
    let safe = &run.tasks[1];
    let text = Command::new(env!("CARGO_BIN_EXE_ladr"))
        .arg(&safe.input)
        .args([
            "--32",
            "--timeout",
            "120",
            "--color",
            "never",
            "--jobs",
            "1",
        ])
        .output()
        .expect("run ladr");
    let text = String::from_utf8_lossy(&text.stdout);
    assert_eq!(safe.reason.as_deref(), text.lines().next(), "{text}");
    assert!(
        text.starts_with("no data race in any execution (proved by the static analysis: "),
        "{text}"
    );
}

/// The measures of the results file, with the ratio against itself, and the same table
/// beside a plot of the results file.
fn assert_stats_tables(dir: &Path, out_json: &Path) {
    let table = Command::new(env!("CARGO_BIN_EXE_ladr"))
        .arg("eval")
        .arg("--stats-only")
        .arg(out_json)
        .arg("--compare")
        .arg(out_json)
        .output()
        .expect("run ladr eval");
    let table = String::from_utf8_lossy(&table.stdout);
    assert!(
        table.contains("| counters  |     2 |     2 |       1 |"),
        "{table}"
    );
    assert!(table.contains("(ratio 1.000)"), "{table}");
    // The same table beside a plot of the results file.
    let plotted = Command::new(env!("CARGO_BIN_EXE_ladr"))
        .arg("eval")
        .arg("--plot-only")
        .arg(out_json)
        .arg("--plot")
        .arg(dir.join("q.svg"))
        .arg("--stats")
        .output()
        .expect("run ladr eval");
    let plotted = String::from_utf8_lossy(&plotted.stdout);
    assert!(
        plotted.contains("| counters  |     2 |     2 |       1 |"),
        "{plotted}"
    );
    assert!(plotted.contains("Plot written to "), "{plotted}");
}

/// Comparing with itself, the binary named by --ladr: no changes, the same formula; an
/// unreadable OLD file is a usage error.
fn assert_compare_with_itself(dir: &Path, out_json: &Path, run: &Run) {
    let again_json = dir.join("again.json");
    let again = Command::new(env!("CARGO_BIN_EXE_ladr"))
        .arg("eval")
        .arg(dir)
        .args(["--filter", "racy", "--timeout", "120", "--stats", "--ladr"])
        .arg(env!("CARGO_BIN_EXE_ladr"))
        .arg("--compare")
        .arg(out_json)
        .arg("--out")
        .arg(&again_json)
        .output()
        .expect("run ladr eval");
    let stdout = String::from_utf8_lossy(&again.stdout);
    assert_eq!(again.status.code(), Some(0), "{stdout}");
    assert!(
        stdout.contains("(1 task in both runs):\n  none\n"),
        "{stdout}"
    );
    assert!(stdout.contains("translate s (mean / median)"), "{stdout}");
    assert!(
        stdout.contains("(means over the 1 task with a formula in both runs at the same bounds)"),
        "{stdout}"
    );
    let again: Run = serde_json::from_str(&std::fs::read_to_string(&again_json).unwrap()).unwrap();
    assert_eq!(
        again.settings.ladr.as_deref(),
        Some(env!("CARGO_BIN_EXE_ladr"))
    );
    assert_eq!(again.settings.ladr_version, env!("CARGO_PKG_VERSION"));
    assert_eq!(
        again.tasks[0]
            .stats
            .as_ref()
            .and_then(|s| s.formula_clauses),
        run.tasks[0].stats.as_ref().and_then(|s| s.formula_clauses)
    );
    let bad = Command::new(env!("CARGO_BIN_EXE_ladr"))
        .arg("eval")
        .arg(dir)
        .arg("--compare")
        .arg(Path::new("/nonexistent/old.json"))
        .output()
        .expect("run ladr eval");
    assert_eq!(bad.status.code(), Some(2));
}
