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
//!   `REAP` (`runner`), so each delta belongs to exactly one task; it includes CBMC, which
//!   ladr waits for. A ladr killed at the hard limit leaves its CBMC to be killed and reaped
//!   by init, so that CBMC's time is missing;
//! * peak memory per task: the sum of `VmHWM` (peak resident set) of ladr and its
//!   descendants (CBMC, gcc), sampled every poll (`POLL`) from `/proc`.
//!
//! The memory limit is `ulimit -v` (`RLIMIT_AS`, virtual address space) set by a `sh`
//! wrapper that then `exec`s ladr; it is inherited by CBMC, and applies to each process
//! separately.
//!
//! Modules: `tasks` finds the tasks, `runner` runs them, `results` judges and holds
//! their results (the JSON file), `report` prints the tables, [`stats`] and [`plot`] the
//! measures and plots; this file has the options and the steps of the command.

pub mod plot;
mod report;
mod results;
mod runner;
pub mod stats;
mod tasks;

use ladr_cbmc as cbmc;
use ladr_svcomp::task::PROPERTY;
pub(crate) use report::count;
use report::Progress;
pub use report::{clock, compare, problems, table};
pub(crate) use results::read_run;
use results::write_json;
pub use results::{classify, Answer, Run, Settings, Status, Tally, TaskResult};
pub use runner::{children_cpu, run_all, Runner};
pub use stats::{stats_table, TaskStats};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode, Stdio};
use std::thread;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};
pub use tasks::{find_task_files, find_tasks, Skipped, Task};

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

/// Runs the evaluation; `Ok(true)` if some answer was wrong.
fn eval(args: &Args) -> Result<bool, String> {
    check_args(args)?;
    let old: Option<Run> = args.compare.as_deref().map(read_run).transpose()?;
    let cbmc = cbmc::locate(args.cbmc.as_deref()).map_err(|e| e.to_string())?;
    let (ladr, ladr_version) = ladr_to_evaluate(args)?;
    let (tasks, skipped) = tasks_to_run(args)?;
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
    let mut run = new_run(args, ladr_version, &ladr, &cbmc, jobs);
    eprintln!(
        "ladr eval: {} tasks under {}, {jobs} at a time, {} s and {} MB each",
        tasks.len(),
        args.dir.display(),
        args.timeout,
        args.memory
    );
    write_json(&args.out, &run)?;
    let start = Instant::now();
    let write_error = run_tasks(args, &runner, &tasks, jobs, start, &mut run);
    let out = summary(args, &run, &skipped, old.as_ref(), jobs, start);
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
    Ok(run.tasks.iter().any(|r| r.status.is_wrong()))
}

/// The checks of the options that need no file: a positive timeout, an existing DIR.
fn check_args(args: &Args) -> Result<(), String> {
    if !(args.timeout.is_finite() && args.timeout > 0.0) {
        return Err(format!("--timeout {}: must be positive", args.timeout));
    }
    if !args.dir.is_dir() {
        return Err(format!("{}: not a directory", args.dir.display()));
    }
    Ok(())
}

/// The ladr binary to run and its version: `--ladr` (its `--version`), else this binary.
fn ladr_to_evaluate(args: &Args) -> Result<(PathBuf, String), String> {
    Ok(match &args.ladr {
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
    })
}

/// The tasks under DIR (with `--filter`), warning on stderr of the task files skipped; an
/// error when none is left.
fn tasks_to_run(args: &Args) -> Result<(Vec<Task>, Vec<Skipped>), String> {
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
    Ok((tasks, skipped))
}

/// The results file of a run that has not started: its settings and no task.
fn new_run(args: &Args, ladr_version: String, ladr: &Path, cbmc: &Path, jobs: u32) -> Run {
    Run {
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
    }
}

/// Runs the tasks, showing progress and rewriting `--out` after each; fills `run` (tasks in
/// task order, times) and marks it complete. Returns the first error writing `--out`.
fn run_tasks(
    args: &Args,
    runner: &Runner,
    tasks: &[Task],
    jobs: u32,
    start: Instant,
    run: &mut Run,
) -> Option<String> {
    let cpu_start = children_cpu();
    let mut progress = Progress::new(tasks.len(), start);
    let mut slots: Vec<Option<TaskResult>> = vec![None; tasks.len()];
    let mut write_error = None;
    run_all(runner, tasks, jobs as usize, |i, r| {
        progress.update(&r);
        slots[i] = Some(r);
        run.tasks = slots.iter().flatten().cloned().collect();
        run.elapsed_s = start.elapsed().as_secs_f64();
        if write_error.is_none() {
            write_error = write_json(&args.out, run).err();
        }
    });
    run.complete = true;
    run.elapsed_s = start.elapsed().as_secs_f64();
    run.cpu_s = ((children_cpu() - cpu_start) * 100.0).round() / 100.0;
    write_error
}

/// The report on stdout: the settings line, the table, wrong answers and errors, skipped
/// task files, the changes against `--compare`, and with `--stats` the measures.
fn summary(
    args: &Args,
    run: &Run,
    skipped: &[Skipped],
    old: Option<&Run>,
    jobs: u32,
    start: Instant,
) -> String {
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
        for (name, reason) in skipped {
            let _ = writeln!(out, "  {name}: {reason}");
        }
    }
    if let (Some(old), Some(path)) = (old, &args.compare) {
        out.push('\n');
        out.push_str(&compare(&old.tasks, results, &path.to_string_lossy()));
    }
    if args.stats {
        out.push('\n');
        out.push_str(&stats_table(results));
        if let (Some(old), Some(path)) = (old, &args.compare) {
            out.push('\n');
            out.push_str(&stats::ratio_text(
                &old.tasks,
                results,
                &path.to_string_lossy(),
            ));
        }
    }
    out
}
