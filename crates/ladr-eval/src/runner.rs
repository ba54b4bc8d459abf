//! Running ladr on the tasks: the command line of one task (under `ulimit -v`), the worker
//! threads, and the measures of each run (wall and CPU seconds, peak memory) with the kill
//! at the hard limit.

use crate::results::{classify, Answer, Status, TaskResult};
use crate::stats;
use crate::tasks::Task;
use ladr_cbmc as cbmc;
use ladr_svcomp::task::DataModel;
use std::path::PathBuf;
use std::process::{Child, Command, ExitStatus, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{mpsc, Mutex, OnceLock};
use std::thread;
use std::time::{Duration, Instant};

/// How often a running task is checked (exit, deadline, memory).
const POLL: Duration = Duration::from_millis(20);

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
    /// ladr is killed this long after `timeout` ([`crate::KILL_GRACE`]).
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
            // SV-COMP mode's schedule (to 5/4), not the shorter one of `ladr FILE`: the
            // tasks are judged as SV-COMP judges them.
            cmd.arg("--deepen")
                .arg("--deepen-steps")
                .arg(ladr_svcomp::DEEPEN_STEPS.to_string());
        } else {
            cmd.arg("--no-deepen");
        }
        // Tasks already run side by side (`--jobs` of eval): one CBMC per task.
        cmd.arg("--jobs").arg("1");
        // SV-COMP mode's thread bound: none but the model's 63 slots (outside it ladr's
        // default is 4, which misses races among more threads: floating_read-20's is in
        // thread 17).
        cmd.arg("--max-threads").arg("63");
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
        // Judged as SV-COMP mode answers: a "no race" that claims no execution is unknown.
        let not_true = doc.as_ref().and_then(|d| d.no_svcomp_true(self.deepen));
        if let (Answer::True, Some(why)) = (result.answer, not_true) {
            result.answer = Answer::Unknown;
            result.status = Status::of(task.spec.expected, result.answer);
            result.reason = Some(format!("no race, but {why}: SV-COMP mode answers unknown"));
            return result;
        }
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

#[cfg(test)]
mod tests {
    use super::*;
    use ladr_svcomp::task::TaskSpec;
    use std::path::Path;

    /// A runner whose "ladr" is `sh`, and a task whose input is a script with `body`: `sh`
    /// runs it with ladr's options as `$@`. (Not an executable script: executing a file
    /// just written can fail with ETXTBSY while other test threads fork.) Killed 60 s after
    /// its `--timeout`: a script that ends by itself is never killed, however loaded the
    /// machine ([`fake_killed_soon`] for the test of the kill).
    fn fake(dir: &Path, body: &str, expected: bool) -> (Runner, Task) {
        let (mut runner, task) = fake_killed_soon(dir, body, expected);
        runner.grace = Duration::from_secs(60);
        (runner, task)
    }

    /// [`fake`], killed 200 ms after its `--timeout`: for a script that cannot finish.
    fn fake_killed_soon(dir: &Path, body: &str, expected: bool) -> (Runner, Task) {
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

    /// A "no race" that claims no execution (vacuous, or the probe's with constant loops
    /// cut) is judged as SV-COMP mode answers it: unknown, not true.
    #[test]
    fn a_no_race_that_claims_no_execution_is_unknown() {
        let dir = tempfile::tempdir().unwrap();
        let run = |doc: &str| {
            let body = format!("echo '{doc}'; exit 0\n");
            let (runner, task) = fake(dir.path(), &body, false);
            runner.run(&task)
        };
        let vacuous = r#"{"verdict":"no-race","bounds":{"vacuous":true}}"#;
        let probe =
            r#"{"verdict":"no-race","bounds":{"vacuous":false},"deepening":{"probe":true}}"#;
        for doc in [vacuous, probe] {
            let r = run(doc);
            assert_eq!(
                (r.answer, r.status),
                (Answer::Unknown, Status::Unknown),
                "{doc}"
            );
            assert!(r.reason.unwrap().contains("SV-COMP mode answers unknown"));
        }
        let plain =
            r#"{"verdict":"no-race","bounds":{"vacuous":false},"deepening":{"probe":false}}"#;
        assert_eq!(run(plain).answer, Answer::True);
        // A deepening run is judged as SV-COMP mode: some finished pair reaches 3/4.
        let deepened = |finished: &str| {
            let doc = format!(
                r#"{{"verdict":"no-race","bounds":{{"vacuous":false}},"deepening":{{"finished":{finished}}}}}"#
            );
            let body = format!("echo '{doc}'; exit 0\n");
            let (mut runner, task) = fake(dir.path(), &body, false);
            runner.deepen = true;
            runner.run(&task).answer
        };
        assert_eq!(deepened("[[2,2],[3,2],[3,3]]"), Answer::Unknown);
        assert_eq!(deepened("[[4,2]]"), Answer::Unknown);
        assert_eq!(deepened("[[2,2],[3,2],[3,3],[3,4]]"), Answer::True);
        assert_eq!(deepened("[[5,4]]"), Answer::True);
    }

    #[test]
    fn runner_passes_arguments_and_memory_limit() {
        let dir = tempfile::tempdir().unwrap();
        let (runner, task) = fake(dir.path(), "echo \"$(ulimit -v) $*\"\n", true);
        let r = runner.run(&task);
        assert_eq!(
            r.reason.as_deref(),
            Some("102400 --32 --rounds 2 --unwind 2 --timeout 0.01 --cbmc cbmc --color never --format json --no-deepen --jobs 1 --max-threads 63")
        );
    }

    #[test]
    fn runner_kills_at_the_hard_limit_with_descendants() {
        let dir = tempfile::tempdir().unwrap();
        let pid_file = dir.path().join("pid");
        let body = format!("sleep 60 & echo $! > '{}'; wait\n", pid_file.display());
        let (runner, task) = fake_killed_soon(dir.path(), &body, false);
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
