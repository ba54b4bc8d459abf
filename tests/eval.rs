//! `ladr eval`: the reports on a fixed result set (snapshots), and one real run of the
//! `ladr` binary with CBMC on a directory of two tasks. The real run needs CBMC
//! (scripts/install-cbmc); it fails without it.

use ladr_eval::{compare, problems, table, Answer, Run, Status, Tally, TaskResult};
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
        result("weaver/f.yml", true, True, 4.0),
        result("weaver/new.yml", true, Unknown, 30.0),
    ]
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
    let sub = dir.path().join("counters");
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
    let out_json = dir.path().join("results.json");
    let out = Command::new(env!("CARGO_BIN_EXE_ladr"))
        .arg("eval")
        .arg(dir.path())
        .args(["--jobs", "2", "--timeout", "120", "--out"])
        .arg(&out_json)
        .output()
        .expect("run ladr eval");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(
        out.status.code(),
        Some(0),
        "stdout:\n{stdout}\nstderr:\n{stderr}"
    );
    let run: Run = serde_json::from_str(&std::fs::read_to_string(&out_json).unwrap()).unwrap();
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

    // Comparing with itself: no changes; an unreadable OLD file is a usage error.
    let again = Command::new(env!("CARGO_BIN_EXE_ladr"))
        .arg("eval")
        .arg(dir.path())
        .args(["--filter", "racy", "--timeout", "120", "--compare"])
        .arg(&out_json)
        .arg("--out")
        .arg(dir.path().join("again.json"))
        .output()
        .expect("run ladr eval");
    let stdout = String::from_utf8_lossy(&again.stdout);
    assert_eq!(again.status.code(), Some(0), "{stdout}");
    assert!(
        stdout.contains("(1 task in both runs):\n  none\n"),
        "{stdout}"
    );
    let bad = Command::new(env!("CARGO_BIN_EXE_ladr"))
        .arg("eval")
        .arg(dir.path())
        .arg("--compare")
        .arg(Path::new("/nonexistent/old.json"))
        .output()
        .expect("run ladr eval");
    assert_eq!(bad.status.code(), Some(2));
}
