//! `ladr eval DIR`: runs ladr over a directory of SV-COMP no-data-race tasks and scores it.
//!
//! ```text
//! DIR/**/*.yml ─ yaml::parse ─ task_spec (input, expected verdict, data model)
//!   ─ N worker threads: `sh -c 'ulimit -v KB && exec "$@"' ladr INPUT --32 ... --format json`
//!     per task (ladr: `--ladr PATH`, else this binary), killed (with its CBMC) at timeout + 10 s
//!   ─ classify exit status (0 true, 1 false, 3/killed unknown, else error) ─ Status, score
//!   ─ the JSON document (`stats::Document`): the verdict line, the check's `TaskStats`
//!   ─ progress line (stderr), JSON results (--out, rewritten after every task),
//!     table per subfolder, wrong answers and errors, changes against --compare, with
//!     --stats the measures per subfolder and the formula-size ratio (stdout)
//! ```
//!
//! Measurements, all without new dependencies or `libc`:
//! * wall seconds per task: from spawn to exit;
//! * CPU seconds per task: the growth of this process's `cutime + cstime`
//!   (`/proc/self/stat`) across the `waitpid` that reaps the task. Reaping is serialised by
//!   [`REAP`], so each delta belongs to exactly one task; it includes CBMC, which ladr waits
//!   for. A ladr killed at the hard limit leaves its CBMC to be killed and reaped by init,
//!   so that CBMC's time is missing;
//! * peak memory per task: the sum of `VmHWM` (peak resident set) of ladr and its
//!   descendants (CBMC, gcc), sampled every poll ([`POLL`]) from `/proc`.
//!
//! The memory limit is `ulimit -v` (`RLIMIT_AS`, virtual address space) set by a `sh`
//! wrapper that then `exec`s ladr; it is inherited by CBMC, and applies to each process
//! separately.

pub mod plot;
pub mod stats;

use ladr_cbmc as cbmc;
use ladr_svcomp::task::{task_spec, DataModel, TaskSpec, PROPERTY};
use serde::{Deserialize, Serialize};
pub use stats::{stats_table, TaskStats};
use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;
use std::io::{IsTerminal, Write as _};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, ExitCode, ExitStatus, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{mpsc, Mutex, OnceLock};
use std::thread;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

/// Options of `ladr eval` (the command line, its help and defaults, is in the binary).
#[derive(Debug, Clone)]
pub struct Args {
    /// Directory searched recursively for SV-COMP task files (`*.yml`) whose properties
    /// include `no-data-race.prp`.
    pub dir: PathBuf,
    /// Tasks run at the same time (default: the number of cores).
    pub jobs: Option<u32>,
    /// Seconds per task: passed to ladr as `--timeout` (CBMC's limit); ladr itself is
    /// killed 10 s later.
    pub timeout: f64,
    /// Memory limit per process in MB (`ulimit -v`, virtual memory; CBMC inherits it).
    pub memory: u64,
    /// Round-robin rounds K, passed to ladr.
    pub rounds: u32,
    /// Loop unwinding and recursion depth U, passed to ladr.
    pub unwind: u32,
    /// Where to write every task's result as JSON (rewritten after each task).
    pub out: PathBuf,
    /// Results of an earlier run (its --out file): list the tasks whose status changed.
    pub compare: Option<PathBuf>,
    /// Only run the tasks whose path (relative to DIR) contains this string.
    pub filter: Option<String>,
    /// The CBMC binary the runs use (default: found as for `ladr FILE`).
    pub cbmc: Option<PathBuf>,
    /// Check each task only at --rounds/--unwind. By default ladr is run with `--deepen`:
    /// starting at those bounds, it grows them while the task's time lasts, as in SV-COMP
    /// mode.
    pub no_deepen: bool,
    /// Draw the quantile plot (and with `compare` the scatter plot) of the results to this
    /// SVG file ([`plot`]).
    pub plot: Option<PathBuf>,
    /// Run nothing: plot this results file of a past run (needs `plot`).
    pub plot_only: Option<PathBuf>,
    /// Print the table of measures ([`stats::stats_table`]) after the run (with `compare`,
    /// also the ratio of mean formula sizes); with `plot_only`, of that file.
    pub stats: bool,
    /// Run nothing: print the table of measures of this results file of a past run.
    pub stats_only: Option<PathBuf>,
    /// The ladr binary to evaluate (default: the running one).
    pub ladr: Option<PathBuf>,
}

/// The child is killed this long after its own `--timeout`.
pub const KILL_GRACE: Duration = Duration::from_secs(10);

/// How often a running task is checked (exit, deadline, memory).
const POLL: Duration = Duration::from_millis(20);

/// One task to run.
#[derive(Clone, Debug)]
pub struct Task {
    /// The task file relative to DIR, with `/` separators.
    pub name: String,
    /// The name of the directory holding the task file (`.` for DIR itself).
    pub subfolder: String,
    /// The input file (DIR joined with the task's directory and `input_files`).
    pub input: PathBuf,
    pub spec: TaskSpec,
}

/// Every `*.yml` file under `dir`, sorted by path (symbolic links to directories are not
/// followed).
pub fn find_task_files(dir: &Path) -> std::io::Result<Vec<PathBuf>> {
    let mut files = vec![];
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for entry in std::fs::read_dir(&d)? {
            let entry = entry?;
            let path = entry.path();
            if entry.file_type()?.is_dir() {
                stack.push(path);
            } else if path.extension().is_some_and(|e| e == "yml" || e == "yaml") {
                files.push(path);
            }
        }
    }
    files.sort();
    Ok(files)
}

/// A task file that names the property but cannot be run: (task, reason).
pub type Skipped = (String, String);

/// The data-race tasks under `dir` whose relative path contains `filter`; task files that
/// name the property but cannot be run are returned as (name, reason) to be reported.
pub fn find_tasks(dir: &Path, filter: Option<&str>) -> std::io::Result<(Vec<Task>, Vec<Skipped>)> {
    let mut tasks = vec![];
    let mut skipped = vec![];
    for file in find_task_files(dir)? {
        let rel = file.strip_prefix(dir).unwrap_or(&file);
        let name = rel
            .components()
            .map(|c| c.as_os_str().to_string_lossy())
            .collect::<Vec<_>>()
            .join("/");
        if filter.is_some_and(|f| !name.contains(f)) {
            continue;
        }
        let text = match std::fs::read(&file) {
            Ok(bytes) => String::from_utf8_lossy(&bytes).into_owned(),
            Err(e) => {
                skipped.push((name, e.to_string()));
                continue;
            }
        };
        match task_spec(&text) {
            Ok(None) => {}
            Ok(Some(spec)) => {
                let parent = file.parent().unwrap_or(dir);
                let subfolder = match rel.parent().and_then(Path::file_name) {
                    Some(n) => n.to_string_lossy().into_owned(),
                    None => ".".into(),
                };
                tasks.push(Task {
                    name,
                    subfolder,
                    input: parent.join(&spec.input),
                    spec,
                });
            }
            Err(reason) => skipped.push((name, reason)),
        }
    }
    Ok((tasks, skipped))
}

// ---------------------------------------------------------------------------------------
// Classification and scores
// ---------------------------------------------------------------------------------------

/// What ladr answered.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Answer {
    /// Exit 0: no race found.
    True,
    /// Exit 1: race found.
    False,
    /// Exit 3, or killed (time or memory limit, signal).
    Unknown,
    /// Exit 2 (input ladr cannot handle) or any other status.
    Error,
}

/// The answer from ladr's exit code; `None` means killed by a signal.
pub fn classify(code: Option<i32>) -> Answer {
    match code {
        Some(0) => Answer::True,
        Some(1) => Answer::False,
        Some(3) | None => Answer::Unknown,
        Some(_) => Answer::Error,
    }
}

/// The answer judged against the expected verdict.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Status {
    CorrectTrue,
    CorrectFalse,
    /// Answered true, but the program has a race (a missed race).
    WrongTrue,
    /// Answered false, but the program has no race (a false alarm).
    WrongFalse,
    Unknown,
    Error,
}

impl Status {
    pub fn of(expected: bool, answer: Answer) -> Status {
        match (expected, answer) {
            (true, Answer::True) => Status::CorrectTrue,
            (false, Answer::False) => Status::CorrectFalse,
            (false, Answer::True) => Status::WrongTrue,
            (true, Answer::False) => Status::WrongFalse,
            (_, Answer::Unknown) => Status::Unknown,
            (_, Answer::Error) => Status::Error,
        }
    }

    /// SV-COMP's score.
    pub fn score(self) -> i64 {
        match self {
            Status::CorrectTrue => 2,
            Status::CorrectFalse => 1,
            Status::WrongTrue => -32,
            Status::WrongFalse => -16,
            Status::Unknown | Status::Error => 0,
        }
    }

    pub fn is_wrong(self) -> bool {
        matches!(self, Status::WrongTrue | Status::WrongFalse)
    }

    pub fn name(self) -> &'static str {
        match self {
            Status::CorrectTrue => "correct-true",
            Status::CorrectFalse => "correct-false",
            Status::WrongTrue => "wrong-true",
            Status::WrongFalse => "wrong-false",
            Status::Unknown => "unknown",
            Status::Error => "error",
        }
    }
}

// ---------------------------------------------------------------------------------------
// Results (the JSON file)
// ---------------------------------------------------------------------------------------

/// One task's result.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TaskResult {
    /// The task file relative to DIR.
    pub task: String,
    pub subfolder: String,
    /// The input file as passed to ladr.
    pub input: String,
    pub expected: bool,
    pub answer: Answer,
    pub status: Status,
    /// ladr's exit code; `null` if it was killed by a signal.
    #[serde(default)]
    pub exit_code: Option<i32>,
    /// The first line of ladr's stdout for a true/false answer (the verdict line); for
    /// unknown and error the first line of stderr (else stdout), or why it was killed.
    #[serde(default)]
    pub reason: Option<String>,
    pub wall_s: f64,
    #[serde(default)]
    pub cpu_s: f64,
    /// Peak resident memory of ladr plus its children (sampled), in MB.
    #[serde(default)]
    pub peak_mb: Option<f64>,
    /// The measures of ladr's JSON document (none: no document, an error before a verdict,
    /// or a results file older than this field).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stats: Option<TaskStats>,
}

/// The settings of a run.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Settings {
    pub ladr_version: String,
    /// Start of the run, seconds since the Unix epoch.
    pub date: u64,
    pub dir: String,
    pub filter: Option<String>,
    pub rounds: u32,
    pub unwind: u32,
    /// Per-task limit in seconds (ladr's `--timeout`; killed 10 s later).
    pub timeout_s: f64,
    /// Per-process virtual memory limit in MB.
    pub memory_mb: u64,
    pub jobs: u32,
    pub cbmc: String,
    /// ladr ran with `--deepen` (bounds grown from rounds/unwind while time lasted).
    #[serde(default)]
    pub deepen: bool,
    /// The ladr binary that was evaluated (`--ladr`; absent in older results files).
    #[serde(default)]
    pub ladr: Option<String>,
}

/// A whole run: what `--out` holds.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Run {
    pub settings: Settings,
    /// False while the run is in progress (the file is rewritten after every task).
    pub complete: bool,
    /// Wall-clock seconds of the whole run.
    pub elapsed_s: f64,
    /// CPU seconds of all children of the run (`cutime + cstime` of `/proc/self/stat`).
    pub cpu_s: f64,
    /// Finished tasks in task order.
    pub tasks: Vec<TaskResult>,
}

/// Counts and sums over a set of results.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Tally {
    pub correct_true: u32,
    pub correct_false: u32,
    pub wrong_true: u32,
    pub wrong_false: u32,
    pub unknown: u32,
    pub error: u32,
    pub score: i64,
    pub cpu_s: f64,
    pub wall_s: f64,
}

impl Tally {
    pub fn add(&mut self, r: &TaskResult) {
        match r.status {
            Status::CorrectTrue => self.correct_true += 1,
            Status::CorrectFalse => self.correct_false += 1,
            Status::WrongTrue => self.wrong_true += 1,
            Status::WrongFalse => self.wrong_false += 1,
            Status::Unknown => self.unknown += 1,
            Status::Error => self.error += 1,
        }
        self.score += r.status.score();
        self.cpu_s += r.cpu_s;
        self.wall_s += r.wall_s;
    }

    pub fn of<'a>(results: impl IntoIterator<Item = &'a TaskResult>) -> Tally {
        let mut t = Tally::default();
        for r in results {
            t.add(r);
        }
        t
    }

    pub fn tasks(&self) -> u32 {
        self.correct() + self.wrong() + self.unknown + self.error
    }

    pub fn correct(&self) -> u32 {
        self.correct_true + self.correct_false
    }

    pub fn wrong(&self) -> u32 {
        self.wrong_true + self.wrong_false
    }

    /// The integer columns of the table, with their headers.
    fn counts(&self) -> [(&'static str, i64); 7] {
        [
            ("correct true", self.correct_true.into()),
            ("correct false", self.correct_false.into()),
            ("wrong true", self.wrong_true.into()),
            ("wrong false", self.wrong_false.into()),
            ("unknown", self.unknown.into()),
            ("error", self.error.into()),
            ("score", self.score),
        ]
    }
}

// ---------------------------------------------------------------------------------------
// Reports
// ---------------------------------------------------------------------------------------

/// A Markdown table: one row per subfolder (sorted) and a total row.
pub fn table(results: &[TaskResult]) -> String {
    let mut groups: BTreeMap<&str, Tally> = BTreeMap::new();
    for r in results {
        groups.entry(&r.subfolder).or_default().add(r);
    }
    let total = Tally::of(results);
    let mut rows: Vec<(&str, Tally)> = groups.into_iter().collect();
    rows.push(("total", total));

    let mut header: Vec<String> = vec!["subfolder".into()];
    header.extend(total.counts().iter().map(|(h, _)| h.to_string()));
    header.extend(["CPU s".into(), "wall s".into()]);
    let body: Vec<Vec<String>> = rows
        .iter()
        .map(|(name, t)| {
            let mut row = vec![name.to_string()];
            row.extend(t.counts().iter().map(|(_, n)| n.to_string()));
            row.push(format!("{:.1}", t.cpu_s));
            row.push(format!("{:.1}", t.wall_s));
            row
        })
        .collect();
    stats::markdown(&header, &body)
}

/// The wrong answers and the errors, one task a line with its reason.
pub fn problems(results: &[TaskResult]) -> String {
    let mut out = String::new();
    let wrong: Vec<&TaskResult> = results.iter().filter(|r| r.status.is_wrong()).collect();
    let errors: Vec<&TaskResult> = results
        .iter()
        .filter(|r| r.status == Status::Error)
        .collect();
    for (title, list) in [("Wrong answers", wrong), ("Errors", errors)] {
        if list.is_empty() {
            continue;
        }
        let _ = writeln!(out, "{title} ({}):", list.len());
        for r in list {
            let detail = match r.status {
                Status::WrongTrue => "missed race".to_string(),
                Status::WrongFalse => "false alarm".to_string(),
                _ => match r.exit_code {
                    Some(c) => format!("exit {c}"),
                    None => "killed".to_string(),
                },
            };
            let reason = r.reason.as_deref().unwrap_or("");
            let _ = writeln!(
                out,
                "  {} ({}, {detail}): {reason}",
                r.task,
                r.status.name()
            );
        }
    }
    out
}

/// The tasks whose status differs between `old` and `new`, and the totals (over the tasks
/// in both runs) before and after.
pub fn compare(old: &[TaskResult], new: &[TaskResult], old_name: &str) -> String {
    let old_by: BTreeMap<&str, &TaskResult> = old.iter().map(|r| (r.task.as_str(), r)).collect();
    let new_names: BTreeSet<&str> = new.iter().map(|r| r.task.as_str()).collect();
    let mut out = String::new();
    let mut changed = vec![];
    let (mut old_common, mut new_common) = (vec![], vec![]);
    for r in new {
        if let Some(o) = old_by.get(r.task.as_str()) {
            old_common.push(*o);
            new_common.push(r);
            if o.status != r.status {
                changed.push((r, o.status));
            }
        }
    }
    let only_old = old
        .iter()
        .filter(|r| !new_names.contains(r.task.as_str()))
        .count();
    let only_new = new.len() - new_common.len();
    let _ = writeln!(
        out,
        "Changes against {old_name} ({} in both runs):",
        count(new_common.len(), "task")
    );
    if changed.is_empty() {
        out.push_str("  none\n");
    }
    for (r, was) in &changed {
        let _ = writeln!(out, "  {}: {} → {}", r.task, was.name(), r.status.name());
    }
    if only_old + only_new > 0 {
        let _ = writeln!(
            out,
            "  ({} only in {old_name}, {only_new} only in this run: not compared)",
            count(only_old, "task")
        );
    }
    let (a, b) = (Tally::of(old_common), Tally::of(new_common));
    let mut deltas: Vec<String> = a
        .counts()
        .iter()
        .zip(b.counts())
        .map(|((h, x), (_, y))| format!("{h} {x} → {y} ({:+})", y - x))
        .collect();
    deltas.push(format!(
        "CPU s {:.1} → {:.1} ({:+.1})",
        a.cpu_s,
        b.cpu_s,
        b.cpu_s - a.cpu_s
    ));
    let _ = writeln!(out, "Totals: {}", deltas.join(", "));
    out
}

/// `1 task`, `2 tasks`.
pub(crate) fn count(n: usize, noun: &str) -> String {
    format!("{n} {noun}{}", if n == 1 { "" } else { "s" })
}

/// `m:ss`, or `h:mm:ss` from one hour.
pub fn clock(d: Duration) -> String {
    let s = d.as_secs();
    if s >= 3600 {
        format!("{}:{:02}:{:02}", s / 3600, s / 60 % 60, s % 60)
    } else {
        format!("{}:{:02}", s / 60, s % 60)
    }
}

// ---------------------------------------------------------------------------------------
// Running tasks
// ---------------------------------------------------------------------------------------

/// Serialises reaping children, so the growth of `cutime + cstime` across one reap is that
/// child's CPU time.
static REAP: Mutex<()> = Mutex::new(());

/// CPU seconds of this process's reaped children (fields `cutime`, `cstime` of
/// `/proc/self/stat`); 0 if unreadable.
pub fn children_cpu() -> f64 {
    let Ok(stat) = std::fs::read_to_string("/proc/self/stat") else {
        return 0.0;
    };
    // Fields after the `(comm)` one: state is field 3; cutime, cstime are fields 16, 17.
    let rest = stat.rsplit_once(')').map_or("", |(_, r)| r);
    let fields: Vec<&str> = rest.split_whitespace().collect();
    let ticks: u64 = [13, 14]
        .iter()
        .filter_map(|&i| fields.get(i)?.parse::<u64>().ok())
        .sum();
    ticks as f64 / clock_ticks()
}

/// Clock ticks per second (`getconf CLK_TCK`; Linux's USER_HZ is 100 everywhere common).
fn clock_ticks() -> f64 {
    static TICKS: OnceLock<f64> = OnceLock::new();
    *TICKS.get_or_init(|| {
        Command::new("getconf")
            .arg("CLK_TCK")
            .output()
            .ok()
            .and_then(|o| String::from_utf8_lossy(&o.stdout).trim().parse().ok())
            .filter(|&t: &f64| t > 0.0)
            .unwrap_or(100.0)
    })
}

/// The process ids of `pid`'s descendants (from `/proc/PID/task/*/children`).
fn descendants(pid: u32) -> Vec<u32> {
    let mut found = vec![];
    let mut todo = vec![pid];
    while let Some(p) = todo.pop() {
        let Ok(tasks) = std::fs::read_dir(format!("/proc/{p}/task")) else {
            continue;
        };
        for t in tasks.flatten() {
            if let Ok(text) = std::fs::read_to_string(t.path().join("children")) {
                for c in text.split_whitespace().filter_map(|c| c.parse().ok()) {
                    if !found.contains(&c) {
                        found.push(c);
                        todo.push(c);
                    }
                }
            }
        }
    }
    found
}

/// `VmHWM` (peak resident set) of `pid` in kB.
fn peak_kb(pid: u32) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

/// How to run ladr on the tasks.
#[derive(Clone, Debug)]
pub struct Runner {
    pub ladr: PathBuf,
    pub cbmc: PathBuf,
    pub rounds: u32,
    pub unwind: u32,
    pub timeout: f64,
    pub memory_mb: u64,
    /// Pass `--deepen`.
    pub deepen: bool,
    /// ladr is killed this long after `timeout` ([`KILL_GRACE`]).
    pub grace: Duration,
}

impl Runner {
    /// The command for one task: `sh -c 'ulimit -v KB && exec "$@"' sh LADR INPUT ...`.
    pub fn command(&self, task: &Task) -> Command {
        let mut cmd = Command::new("sh");
        cmd.arg("-c")
            .arg(r#"ulimit -v "$1" && shift && exec "$@""#)
            .arg("sh")
            .arg((self.memory_mb * 1024).to_string())
            .arg(&self.ladr)
            .arg(&task.input);
        match task.spec.data_model {
            Some(DataModel::ILP32) => {
                cmd.arg("--32");
            }
            Some(DataModel::LP64) => {
                cmd.arg("--64");
            }
            None => {}
        }
        cmd.arg("--rounds")
            .arg(self.rounds.to_string())
            .arg("--unwind")
            .arg(self.unwind.to_string())
            .arg("--timeout")
            .arg(self.timeout.to_string())
            .arg("--cbmc")
            .arg(&self.cbmc)
            .arg("--color")
            .arg("never")
            // The JSON document: the verdict and the check's measures (`stats`).
            .arg("--format")
            .arg("json");
        if self.deepen {
            cmd.arg("--deepen");
        } else {
            cmd.arg("--no-deepen");
        }
        // Tasks already run side by side (`--jobs` of eval): one CBMC per task.
        cmd.arg("--jobs").arg("1");
        cmd.stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        cmd
    }

    /// Runs one task to completion or the hard limit.
    pub fn run(&self, task: &Task) -> TaskResult {
        let start = Instant::now();
        let mut result = TaskResult {
            task: task.name.clone(),
            subfolder: task.subfolder.clone(),
            input: task.input.to_string_lossy().into_owned(),
            expected: task.spec.expected,
            answer: Answer::Error,
            status: Status::Error,
            exit_code: None,
            reason: None,
            wall_s: 0.0,
            cpu_s: 0.0,
            peak_mb: None,
            stats: None,
        };
        let spawned = {
            // Spawning reaps nothing, but keep it out of another task's reap window anyway.
            let _reap = REAP.lock();
            self.command(task).spawn()
        };
        let mut child = match spawned {
            Ok(c) => c,
            Err(e) => {
                result.reason = Some(format!("cannot start sh: {e}"));
                return result;
            }
        };
        let out = cbmc::process::reader(child.stdout.take());
        let err = cbmc::process::reader(child.stderr.take());
        let deadline = start + Duration::from_secs_f64(self.timeout.max(0.0)) + self.grace;
        let (status, cpu, peak, killed) = wait(&mut child, deadline);
        // Rounded to the digits that mean something (x·k rounded, over k: no float noise).
        let round = |x: f64, k: f64| (x * k).round() / k;
        result.wall_s = round(start.elapsed().as_secs_f64(), 1000.0);
        result.cpu_s = round(cpu, 100.0);
        result.peak_mb = peak.map(|kb| round(kb as f64 / 1024.0, 10.0));
        let stdout = out.join().unwrap_or_default();
        let stderr = err.join().unwrap_or_default();
        let Some(status) = status else {
            result.reason = Some("cannot wait for ladr".into());
            return result;
        };
        result.exit_code = status.code();
        // Killed at the limit is unknown, even if ladr managed to exit first.
        result.answer = if killed {
            Answer::Unknown
        } else {
            classify(result.exit_code)
        };
        result.status = Status::of(task.spec.expected, result.answer);
        let first = |s: &str| {
            s.lines()
                .map(str::trim)
                .find(|l| !l.is_empty())
                .map(|l| l.chars().take(300).collect::<String>())
        };
        // ladr's one-line verdict, from the JSON document (else the first line of stdout:
        // not a document).
        let doc = stats::Document::parse(&stdout);
        let verdict_line = || {
            doc.as_ref()
                .map(|d| d.summary().chars().take(300).collect())
                .or_else(|| first(&stdout))
        };
        result.stats = doc.as_ref().and_then(|d| d.task_stats());
        result.reason = if killed {
            Some(format!(
                "killed after {:.0} s (wall-clock limit)",
                result.wall_s
            ))
        } else {
            match result.answer {
                Answer::True | Answer::False => verdict_line(),
                Answer::Unknown | Answer::Error => first(&stderr).or_else(verdict_line),
            }
        };
        if result.exit_code.is_none() && !killed {
            use std::os::unix::process::ExitStatusExt;
            let sig = status.signal().unwrap_or(0);
            let why = result.reason.take().unwrap_or_default();
            result.reason = Some(format!("killed by signal {sig}; {why}"));
        }
        result
    }
}

/// Waits for `child`, killing it and its descendants at `deadline`. Returns the exit
/// status, the child's CPU seconds, its sampled peak memory (kB) and whether it was killed.
fn wait(child: &mut Child, deadline: Instant) -> (Option<ExitStatus>, f64, Option<u64>, bool) {
    let pid = child.id();
    let mut peak: Option<u64> = None;
    let mut killed = false;
    loop {
        let procs: Vec<u32> = std::iter::once(pid).chain(descendants(pid)).collect();
        let sum: u64 = procs.iter().filter_map(|&p| peak_kb(p)).sum();
        if sum > 0 {
            peak = Some(peak.unwrap_or(0).max(sum));
        }
        {
            let _reap = REAP.lock();
            let before = children_cpu();
            match child.try_wait() {
                Ok(Some(status)) => {
                    let cpu = (children_cpu() - before).max(0.0);
                    return (Some(status), cpu, peak, killed);
                }
                Ok(None) => {}
                Err(_) => return (None, 0.0, peak, killed),
            }
            if !killed && Instant::now() >= deadline {
                // ladr first (so it cannot answer after its CBMC died), then the
                // descendants listed above (now orphans, same pids).
                let _ = child.kill();
                let others: Vec<String> = procs[1..].iter().map(u32::to_string).collect();
                cbmc::process::kill(&others);
                killed = true;
            }
        }
        thread::sleep(POLL);
    }
}

/// Runs `tasks` on `jobs` threads; `done(index, result)` is called on the calling thread
/// as each finishes.
pub fn run_all(
    runner: &Runner,
    tasks: &[Task],
    jobs: usize,
    mut done: impl FnMut(usize, TaskResult),
) {
    // Ask for the clock rate now: `getconf` must not be reaped inside a task's window.
    clock_ticks();
    let next = AtomicUsize::new(0);
    let (tx, rx) = mpsc::channel();
    thread::scope(|s| {
        for _ in 0..jobs.clamp(1, tasks.len().max(1)) {
            let tx = tx.clone();
            let next = &next;
            s.spawn(move || loop {
                let i = next.fetch_add(1, Ordering::SeqCst);
                let Some(task) = tasks.get(i) else { break };
                if tx.send((i, runner.run(task))).is_err() {
                    break;
                }
            });
        }
        drop(tx);
        for (i, r) in rx {
            done(i, r);
        }
    });
}

// ---------------------------------------------------------------------------------------
// Progress
// ---------------------------------------------------------------------------------------

/// The progress line on stderr: rewritten in place on a terminal, else printed at every
/// tenth of the tasks.
struct Progress {
    total: usize,
    done: usize,
    start: Instant,
    tally: Tally,
    tty: bool,
    last_decile: usize,
}

impl Progress {
    fn update(&mut self, r: &TaskResult) {
        self.done += 1;
        self.tally.add(r);
        let decile = self.done * 10 / self.total.max(1);
        if !self.tty && decile == self.last_decile && self.done < self.total {
            return;
        }
        self.last_decile = decile;
        let t = &self.tally;
        let mut name: String = r.task.clone();
        if name.chars().count() > 48 {
            let tail: String = name.chars().skip(name.chars().count() - 47).collect();
            name = format!("…{tail}");
        }
        let line = format!(
            "[{}/{}] {} correct {}, wrong {}, unknown {}, error {} — {name}",
            self.done,
            self.total,
            clock(self.start.elapsed()),
            t.correct(),
            t.wrong(),
            t.unknown,
            t.error
        );
        let mut err = std::io::stderr().lock();
        if self.tty {
            let _ = write!(err, "\r{line}\x1b[K");
            if self.done == self.total {
                let _ = writeln!(err);
            }
        } else {
            let _ = writeln!(err, "{line}");
        }
        let _ = err.flush();
    }
}

// ---------------------------------------------------------------------------------------
// The command
// ---------------------------------------------------------------------------------------

/// `ladr eval`: exit 0 if no answer was wrong, 1 if one was, 2 on a usage or I/O error.
pub fn main(args: &Args) -> ExitCode {
    if let Some(results) = &args.stats_only {
        return match stats::stats_only(results, args.compare.as_deref()) {
            Ok(text) => {
                print!("{text}");
                ExitCode::SUCCESS
            }
            Err(e) => {
                eprintln!("error: {e}");
                ExitCode::from(2)
            }
        };
    }
    if let Some(results) = &args.plot_only {
        if args.stats {
            match stats::stats_only(results, args.compare.as_deref()) {
                Ok(text) => println!("{text}"),
                Err(e) => {
                    eprintln!("error: {e}");
                    return ExitCode::from(2);
                }
            }
        }
        let Some(plot) = &args.plot else {
            eprintln!("error: --plot-only needs --plot FILE.svg");
            return ExitCode::from(2);
        };
        return match plot::plot_only(results, plot, args.compare.as_deref()) {
            Ok(files) => {
                for f in files {
                    println!("Plot written to {}", f.display());
                }
                ExitCode::SUCCESS
            }
            Err(e) => {
                eprintln!("error: {e}");
                ExitCode::from(2)
            }
        };
    }
    match eval(args) {
        Ok(wrong) => ExitCode::from(if wrong { 1 } else { 0 }),
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::from(2)
        }
    }
}

/// Reads a results file (`--out` of a past run).
pub(crate) fn read_run(path: &Path) -> Result<Run, String> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    serde_json::from_str(&text).map_err(|e| format!("{}: {e}", path.display()))
}

/// The version `ladr --version` of the binary at `ladr` prints (its last word).
fn version_of(ladr: &Path) -> Option<String> {
    let out = Command::new(ladr)
        .arg("--version")
        .stdin(Stdio::null())
        .output()
        .ok()?;
    let text = String::from_utf8_lossy(&out.stdout);
    text.split_whitespace().last().map(str::to_string)
}

fn write_json(path: &Path, run: &Run) -> Result<(), String> {
    let text = serde_json::to_string_pretty(run).map_err(|e| e.to_string())?;
    let mut tmp = path.as_os_str().to_owned();
    tmp.push(".tmp");
    let tmp = PathBuf::from(tmp);
    std::fs::write(&tmp, text + "\n")
        .and_then(|_| std::fs::rename(&tmp, path))
        .map_err(|e| format!("cannot write {}: {e}", path.display()))
}

/// Runs the evaluation; `Ok(true)` if some answer was wrong.
fn eval(args: &Args) -> Result<bool, String> {
    if !(args.timeout.is_finite() && args.timeout > 0.0) {
        return Err(format!("--timeout {}: must be positive", args.timeout));
    }
    if !args.dir.is_dir() {
        return Err(format!("{}: not a directory", args.dir.display()));
    }
    let old: Option<Run> = args.compare.as_deref().map(read_run).transpose()?;
    let cbmc = cbmc::locate(args.cbmc.as_deref()).map_err(|e| e.to_string())?;
    let (ladr, ladr_version) = match &args.ladr {
        Some(p) => {
            if !p.is_file() {
                return Err(format!("--ladr {}: no such file", p.display()));
            }
            let v = version_of(p).unwrap_or_else(|| "unknown".into());
            (p.clone(), v)
        }
        None => (
            std::env::current_exe().map_err(|e| format!("cannot find ladr itself: {e}"))?,
            env!("CARGO_PKG_VERSION").to_string(),
        ),
    };
    let (tasks, skipped) = find_tasks(&args.dir, args.filter.as_deref())
        .map_err(|e| format!("{}: {e}", args.dir.display()))?;
    for (name, reason) in &skipped {
        eprintln!("warning: skipping {name}: {reason}");
    }
    if tasks.is_empty() {
        return Err(format!(
            "no task under {} names {PROPERTY}{}",
            args.dir.display(),
            args.filter
                .as_deref()
                .map(|f| format!(" (with `{f}` in its path)"))
                .unwrap_or_default()
        ));
    }
    let jobs = args.jobs.unwrap_or_else(|| {
        thread::available_parallelism().map_or(1, |n| u32::try_from(n.get()).unwrap_or(1))
    });
    let runner = Runner {
        ladr: ladr.clone(),
        cbmc: cbmc.clone(),
        rounds: args.rounds,
        unwind: args.unwind,
        timeout: args.timeout,
        memory_mb: args.memory,
        deepen: !args.no_deepen,
        grace: KILL_GRACE,
    };
    let mut run = Run {
        settings: Settings {
            ladr_version,
            date: SystemTime::now()
                .duration_since(UNIX_EPOCH)
                .map_or(0, |d| d.as_secs()),
            dir: args.dir.to_string_lossy().into_owned(),
            filter: args.filter.clone(),
            rounds: args.rounds,
            unwind: args.unwind,
            timeout_s: args.timeout,
            memory_mb: args.memory,
            jobs,
            cbmc: cbmc.to_string_lossy().into_owned(),
            deepen: !args.no_deepen,
            ladr: Some(ladr.to_string_lossy().into_owned()),
        },
        complete: false,
        elapsed_s: 0.0,
        cpu_s: 0.0,
        tasks: vec![],
    };
    eprintln!(
        "ladr eval: {} tasks under {}, {jobs} at a time, {} s and {} MB each",
        tasks.len(),
        args.dir.display(),
        args.timeout,
        args.memory
    );
    write_json(&args.out, &run)?;
    let start = Instant::now();
    let cpu_start = children_cpu();
    let mut progress = Progress {
        total: tasks.len(),
        done: 0,
        start,
        tally: Tally::default(),
        tty: std::io::stderr().is_terminal(),
        last_decile: 0,
    };
    let mut slots: Vec<Option<TaskResult>> = vec![None; tasks.len()];
    let mut write_error = None;
    run_all(&runner, &tasks, jobs as usize, |i, r| {
        progress.update(&r);
        slots[i] = Some(r);
        run.tasks = slots.iter().flatten().cloned().collect();
        run.elapsed_s = start.elapsed().as_secs_f64();
        if write_error.is_none() {
            write_error = write_json(&args.out, &run).err();
        }
    });
    run.complete = true;
    run.elapsed_s = start.elapsed().as_secs_f64();
    run.cpu_s = ((children_cpu() - cpu_start) * 100.0).round() / 100.0;
    let results = &run.tasks;

    let mut out = String::new();
    let _ = writeln!(
        out,
        "ladr {} on {} tasks under {}: rounds {}, unwind {}, timeout {} s, memory {} MB, {jobs} jobs; elapsed {}, CPU {:.1} s\n",
        run.settings.ladr_version,
        results.len(),
        args.dir.display(),
        args.rounds,
        args.unwind,
        args.timeout,
        args.memory,
        clock(start.elapsed()),
        run.cpu_s,
    );
    out.push_str(&table(results));
    let p = problems(results);
    if !p.is_empty() {
        out.push('\n');
        out.push_str(&p);
    }
    if !skipped.is_empty() {
        let _ = writeln!(out, "\nSkipped task files ({}):", skipped.len());
        for (name, reason) in &skipped {
            let _ = writeln!(out, "  {name}: {reason}");
        }
    }
    if let (Some(old), Some(path)) = (&old, &args.compare) {
        out.push('\n');
        out.push_str(&compare(&old.tasks, results, &path.to_string_lossy()));
    }
    if args.stats {
        out.push('\n');
        out.push_str(&stats_table(results));
        if let (Some(old), Some(path)) = (&old, &args.compare) {
            out.push('\n');
            out.push_str(&stats::ratio_text(
                &old.tasks,
                results,
                &path.to_string_lossy(),
            ));
        }
    }
    print!("{out}");
    write_json(&args.out, &run)?;
    if let Some(e) = write_error {
        return Err(e);
    }
    println!("\nResults written to {}", args.out.display());
    if let Some(p) = &args.plot {
        let name = args
            .compare
            .as_ref()
            .map(|c| c.display().to_string())
            .unwrap_or_default();
        for f in plot::write(p, &run, old.as_ref().map(|o| (o, name.as_str())))? {
            println!("Plot written to {}", f.display());
        }
    }
    Ok(results.iter().any(|r| r.status.is_wrong()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn classification_and_scores() {
        assert_eq!(classify(Some(0)), Answer::True);
        assert_eq!(classify(Some(1)), Answer::False);
        assert_eq!(classify(Some(3)), Answer::Unknown);
        assert_eq!(classify(None), Answer::Unknown);
        assert_eq!(classify(Some(2)), Answer::Error);
        assert_eq!(classify(Some(101)), Answer::Error);
        let cases = [
            (true, Answer::True, Status::CorrectTrue, 2),
            (false, Answer::False, Status::CorrectFalse, 1),
            (false, Answer::True, Status::WrongTrue, -32),
            (true, Answer::False, Status::WrongFalse, -16),
            (true, Answer::Unknown, Status::Unknown, 0),
            (false, Answer::Error, Status::Error, 0),
        ];
        for (expected, answer, status, score) in cases {
            assert_eq!(Status::of(expected, answer), status);
            assert_eq!(status.score(), score);
        }
    }

    #[test]
    fn clock_format() {
        assert_eq!(clock(Duration::from_secs(41)), "0:41");
        assert_eq!(clock(Duration::from_secs(754)), "12:34");
        assert_eq!(clock(Duration::from_secs(3723)), "1:02:03");
    }

    /// A runner whose "ladr" is `sh`, and a task whose input is a script with `body`: `sh`
    /// runs it with ladr's options as `$@`. (Not an executable script: executing a file
    /// just written can fail with ETXTBSY while other test threads fork.)
    fn fake(dir: &Path, body: &str, expected: bool) -> (Runner, Task) {
        let script = dir.join("fake-ladr.sh");
        std::fs::write(&script, body).unwrap();
        let runner = Runner {
            ladr: "sh".into(),
            cbmc: "cbmc".into(),
            rounds: 2,
            unwind: 2,
            timeout: 0.01,
            memory_mb: 100,
            deepen: false,
            grace: Duration::from_millis(200),
        };
        let task = Task {
            name: "sub/t.yml".into(),
            subfolder: "sub".into(),
            input: script,
            spec: TaskSpec {
                input: "t.i".into(),
                expected,
                data_model: Some(DataModel::ILP32),
            },
        };
        (runner, task)
    }

    #[test]
    fn runner_exit_codes_and_reasons() {
        let dir = tempfile::tempdir().unwrap();
        let run = |code: &str, expected: bool| {
            let body = format!(
                "echo 'verdict line'; echo; echo >&2; echo 'first error' >&2; exit {code}\n"
            );
            let (runner, task) = fake(dir.path(), &body, expected);
            runner.run(&task)
        };
        let r = run("1", false);
        assert_eq!((r.answer, r.status), (Answer::False, Status::CorrectFalse));
        assert_eq!(r.reason.as_deref(), Some("verdict line"));
        assert_eq!(r.exit_code, Some(1));
        assert_eq!(r.subfolder, "sub");
        let r = run("0", false);
        assert_eq!((r.answer, r.status), (Answer::True, Status::WrongTrue));
        let r = run("1", true);
        assert_eq!((r.answer, r.status), (Answer::False, Status::WrongFalse));
        let r = run("3", true);
        assert_eq!((r.answer, r.status), (Answer::Unknown, Status::Unknown));
        assert_eq!(r.reason.as_deref(), Some("first error"));
        let r = run("2", true);
        assert_eq!((r.answer, r.status), (Answer::Error, Status::Error));
        assert_eq!(r.reason.as_deref(), Some("first error"));
        let r = run("101", true);
        assert_eq!((r.answer, r.status), (Answer::Error, Status::Error));
        let r = run("0", true);
        assert_eq!((r.answer, r.status), (Answer::True, Status::CorrectTrue));
    }

    #[test]
    fn runner_passes_arguments_and_memory_limit() {
        let dir = tempfile::tempdir().unwrap();
        let (runner, task) = fake(dir.path(), "echo \"$(ulimit -v) $*\"\n", true);
        let r = runner.run(&task);
        assert_eq!(
            r.reason.as_deref(),
            Some("102400 --32 --rounds 2 --unwind 2 --timeout 0.01 --cbmc cbmc --color never --format json --no-deepen --jobs 1")
        );
    }

    #[test]
    fn runner_kills_at_the_hard_limit_with_descendants() {
        let dir = tempfile::tempdir().unwrap();
        let pid_file = dir.path().join("pid");
        let body = format!("sleep 60 & echo $! > '{}'; wait\n", pid_file.display());
        let (runner, task) = fake(dir.path(), &body, false);
        let r = runner.run(&task);
        assert_eq!((r.answer, r.status), (Answer::Unknown, Status::Unknown));
        assert_eq!(r.exit_code, None);
        assert!(r.reason.unwrap().contains("wall-clock limit"));
        // The grandchild `sleep` was killed too (gone, or a zombie awaiting its reaper).
        let pid = std::fs::read_to_string(&pid_file).unwrap();
        let stat = format!("/proc/{}/stat", pid.trim());
        let dead = (0..500).any(|_| {
            let alive = std::fs::read_to_string(&stat).is_ok_and(|s| {
                s.rsplit_once(')')
                    .is_some_and(|(_, r)| !r.starts_with(" Z"))
            });
            if alive {
                thread::sleep(Duration::from_millis(10));
            }
            !alive
        });
        assert!(dead, "sleep {pid} still runs");
    }

    #[test]
    fn children_cpu_is_readable() {
        assert!(children_cpu() >= 0.0);
    }
}
