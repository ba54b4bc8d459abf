//! `ladr eval`'s command line: its options, and the arguments of `ladr_eval` they make.

use std::path::PathBuf;

/// Options of `ladr eval`.
#[derive(clap::Args, Debug, Clone)]
pub(crate) struct EvalArgs {
    /// Directory searched recursively for SV-COMP task files (`*.yml`) whose properties
    /// include `no-data-race.prp`.
    #[arg(required_unless_present_any = ["plot_only", "stats_only"])]
    dir: Option<PathBuf>,
    /// Tasks run at the same time (default: the number of cores).
    #[arg(long, short = 'j', value_parser = clap::value_parser!(u32).range(1..))]
    jobs: Option<u32>,
    /// Seconds per task: passed to ladr as `--timeout` (CBMC's limit); ladr itself is
    /// killed 10 s later.
    #[arg(long, default_value_t = 20.0)]
    timeout: f64,
    /// Memory limit per process in MB (`ulimit -v`, virtual memory; CBMC inherits it).
    #[arg(long, default_value_t = 4000, value_parser = clap::value_parser!(u64).range(1..))]
    memory: u64,
    /// Round-robin rounds K, passed to ladr.
    #[arg(long, default_value_t = 2)]
    rounds: u32,
    /// Loop unwinding and recursion depth U, passed to ladr.
    #[arg(long, default_value_t = 2)]
    unwind: u32,
    /// Where to write every task's result as JSON (rewritten after each task).
    #[arg(long, default_value = "eval-results.json")]
    out: PathBuf,
    /// Results of an earlier run (its --out file): list the tasks whose status changed.
    #[arg(long, value_name = "OLD.json")]
    compare: Option<PathBuf>,
    /// Only run the tasks whose path (relative to DIR) contains this string.
    #[arg(long, value_name = "SUBSTRING")]
    filter: Option<String>,
    /// The CBMC binary the runs use (default: found as for `ladr FILE`).
    #[arg(long)]
    cbmc: Option<PathBuf>,
    /// Check each task only at --rounds/--unwind. By default ladr is run with `--deepen`:
    /// starting at those bounds, it grows them while the task's time lasts, as in SV-COMP
    /// mode.
    #[arg(long)]
    no_deepen: bool,
    /// Draw the SV-COMP quantile plot (CPU time of each correct answer, sorted, log scale)
    /// to this SVG file; with --compare also a scatter of per-task times, FILE-scatter.svg.
    #[arg(long, value_name = "FILE.svg")]
    plot: Option<PathBuf>,
    /// Run nothing: draw --plot from the results file of a past run.
    #[arg(long, value_name = "RESULTS.json", requires = "plot")]
    plot_only: Option<PathBuf>,
    /// After the run (or with --plot-only, for that file) print the measures per subfolder:
    /// tasks with stats, mean / median of translation s, CBMC s, formula variables and
    /// clauses, visible statements, instrumented accesses; with --compare also the ratio of
    /// mean formula sizes over the tasks with a formula in both runs.
    #[arg(long)]
    stats: bool,
    /// Run nothing: print the --stats table of the results file of a past run (with
    /// --compare OLD.json, also the ratio of mean formula sizes).
    #[arg(long, value_name = "RESULTS.json", conflicts_with = "plot_only")]
    stats_only: Option<PathBuf>,
    /// The ladr binary to evaluate (default: this one), e.g. an older build to compare
    /// with; its JSON may lack newer fields.
    #[arg(long, value_name = "PATH")]
    ladr: Option<PathBuf>,
}

impl From<EvalArgs> for ladr_eval::Args {
    fn from(a: EvalArgs) -> Self {
        ladr_eval::Args {
            dir: a.dir.unwrap_or_default(),
            jobs: a.jobs,
            timeout: a.timeout,
            memory: a.memory,
            rounds: a.rounds,
            unwind: a.unwind,
            out: a.out,
            compare: a.compare,
            filter: a.filter,
            cbmc: a.cbmc,
            no_deepen: a.no_deepen,
            plot: a.plot,
            plot_only: a.plot_only,
            stats: a.stats,
            stats_only: a.stats_only,
            ladr: a.ladr,
        }
    }
}
