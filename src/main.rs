//! The `ladr` command line. All work is done by the library; this file parses options,
//! calls it, and prints the result.

use clap::{Parser, Subcommand, ValueEnum};
use codespan_reporting::term::termcolor::{ColorChoice, StandardStream};
use ladr_c::diag::{render, Error, ErrorKind};
use ladr_c::frontend::{self, Parsed};
use ladr_c::print::print_unit;
use ladr_cbmc::memory::{Budget, POLL};
use ladr_check::{Phase, Plan, Prove, Request, Verdict};
use ladr_ir::program::Options;
use ladr_report as report;
use ladr_seq::pipeline::{translate, Stage};
use ladr_svcomp as svcomp;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

mod auto_cli;
mod documents;
mod eval_cli;
mod gate_cli;
mod gcc_flags;
mod library_cli;
mod swarm_cli;
mod watch;

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum Format {
    /// A diagnostic with both accesses in the source and the interleaving.
    Text,
    /// The schema documented in docs/output.md (`verdict`, `bounds`, `races`, `search`, `stats`,
    /// `tool`).
    Json,
    /// SARIF 2.1.0 (GitHub code scanning); URIs relative to the git top level or the cwd.
    Sarif,
    /// One self-contained HTML page: both accesses in the source, one lane per thread, the
    /// locks held (`ladr FILE` only).
    Html,
}

/// `--witness-format`'s values.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum WitnessFormat {
    /// SV-COMP's GraphML witness, format 1.0.
    Graphml,
    /// SV-COMP's YAML witness, format 2.2 (`violation_sequence` with thread ids).
    Yaml,
}

/// `--emit`'s values: the pipeline's stages, named for the command line.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum Emit {
    /// After parsing (the round-trip of the front end and printer).
    Parsed,
    /// After `normalise`.
    Normalised,
    /// The bounded program: after `inline` and `unwind`.
    Bounded,
    /// After `threads`: one function per slot, pthread model added.
    Threads,
    /// The sequential program given to CBMC.
    Seq,
}

impl Emit {
    fn stage(self) -> Stage {
        match self {
            Emit::Parsed => Stage::Parsed,
            Emit::Normalised => Stage::Normalised,
            Emit::Bounded => Stage::Bounded,
            Emit::Threads => Stage::Threads,
            Emit::Seq => Stage::Seq,
        }
    }
}

/// `--solver`'s values (`ladr_cbmc::solver::Choice`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum SolverArg {
    /// CBMC's own MiniSat.
    Minisat,
    /// CaDiCaL (`scripts/install-cbmc` installs it; $LADR_CADICAL names another), run by
    /// CBMC on the formula.
    Cadical,
    /// MiniSat and CaDiCaL at once, each in a CBMC of its own: the first verdict wins.
    Portfolio,
}

impl From<SolverArg> for ladr_cbmc::solver::Choice {
    fn from(s: SolverArg) -> Self {
        match s {
            SolverArg::Minisat => Self::Minisat,
            SolverArg::Cadical => Self::Cadical,
            SolverArg::Portfolio => Self::Portfolio,
        }
    }
}

#[derive(Clone, Copy, Debug, ValueEnum)]
enum Color {
    Auto,
    Always,
    Never,
}

/// The short usage (also what `ladr` alone prints): checking files, and the subcommands.
const USAGE: &str = "ladr [OPTIONS] <FILE>...        check a program (one file defines `main`)
       ladr check [OPTIONS] [NAME]...  run the race gate of ladr.toml
       ladr init                       write a starter ladr.toml
       ladr eval [OPTIONS] <DIR>       score ladr on SV-COMP data-race tasks
       ladr swarm emit|collect ...     split one check for a cluster";

/// Finds data races in multi-threaded C programs (POSIX threads) by lazy sequentialization
/// and bounded model checking with CBMC.
///
/// Exit status: 0 no race found within the bounds, 1 race found, 2 usage error or input
/// ladr cannot handle (the message names the construct and its location), 3 no verdict
/// (time limit, CBMC failure, internal error, a vacuous check: no execution within the
/// bounds creates a thread), 130/143/129 interrupted (SIGINT/SIGTERM/SIGHUP).
///
/// `ladr eval DIR` runs ladr over the SV-COMP data-race tasks under DIR (see `ladr eval --help`).
#[derive(Parser, Debug, Clone)]
#[command(name = "ladr", version, about, long_about, override_usage = USAGE)]
#[command(args_conflicts_with_subcommands = true, subcommand_negates_reqs = true)]
#[command(allow_negative_numbers = true)]
struct Cli {
    #[command(subcommand)]
    command: Option<Cmd>,
    /// The C files of the program: exactly one defines `main` (`.i` = already preprocessed;
    /// anything else goes through `gcc -E`). Several files are linked as a C linker would:
    /// `static` names stay apart, `extern` declarations meet their definitions.
    #[arg(required = true, value_name = "FILE")]
    file: Vec<PathBuf>,

    /// Round-robin rounds K: each thread runs at most K contexts (1–100).
    #[arg(long, default_value_t = 2, value_name = "K", help_heading = "Bounds",
          value_parser = clap::value_parser!(u32).range(1..=ladr_ir::program::MAX_ROUNDS as i64))]
    rounds: u32,
    /// Threads of an OpenMP team that no `num_threads` clause or `omp_set_num_threads` call
    /// sizes (1–8; default 2). A race that needs more threads than this is not looked for,
    /// except that --deepen adds one thread after a "no race" (docs/openmp.md).
    #[arg(long, value_name = "N", help_heading = "Bounds",
          value_parser = clap::value_parser!(u64).range(1..=8))]
    omp_threads: Option<u64>,
    /// Loop unwinding and recursion depth U (0–1000).
    #[arg(long, default_value_t = 2, value_name = "U", help_heading = "Bounds",
          value_parser = clap::value_parser!(u32).range(0..=ladr_ir::program::MAX_UNWIND as i64))]
    unwind: u32,
    /// Loops with a constant bound up to N iterations are unwound completely (0–1000); a
    /// nest of them, up to N iterations of its innermost body together (outer loops cut).
    #[arg(long, default_value_t = 100, value_name = "N", help_heading = "Bounds",
          value_parser = clap::value_parser!(u32).range(0..=ladr_ir::program::MAX_UNWIND as i64))]
    max_unwind: u32,
    /// At most N threads besides `main` (1–63; default 4, in SV-COMP mode 63): a
    /// `pthread_create` beyond them is not run, and the answer says so (`the bounds cut the
    /// program: threads`; SV-COMP mode then never answers `true`).
    #[arg(long, value_name = "N", help_heading = "Bounds",
          value_parser = clap::value_parser!(u32).range(1..=63))]
    max_threads: Option<u32>,
    /// Time limit for the whole check, in seconds (translation and CBMC); 0: none. The
    /// answer is then "unknown", or with --deepen the answer of the deepest finished bounds.
    #[arg(long, default_value = "300", value_name = "SECONDS", help_heading = "Bounds",
          value_parser = parse_seconds)]
    timeout: f64,
    /// After "no race", check again with larger bounds while the time limit leaves time
    /// (from 2/2: 3/2, 3/3, 3/4, 4/2, 4/4, then rounds and unwinding in turn). On by
    /// default (and in SV-COMP mode); --no-deepen turns it off. The answer is the first race
    /// found, or "no race" for the deepest bounds of the schedule up to which every bound
    /// pair finished. A vacuous "no race" (no execution within the bounds creates a thread)
    /// does not stop it: the bounds grow on past --deepen-steps (up to 100 pairs) while
    /// time is left; if it stays vacuous the answer is `unknown` (exit 3). It starts
    /// with a probe of the first bound pair with loops of a constant bound cut after
    /// --unwind iterations (where that at least halves the program; at most a quarter of
    /// the time left): only a race found there is an answer.
    #[arg(long, help_heading = "Bounds", conflicts_with = "no_deepen")]
    deepen: bool,
    /// Check only at --rounds/--unwind (no deepening).
    #[arg(long, help_heading = "Bounds")]
    no_deepen: bool,
    /// CBMC processes at once (default: the cores, no more than the free memory holds at
    /// about 1 GiB each; 1 in SV-COMP mode; an explicit N is capped by the same memory
    /// rule, with a note): the bound pairs of the deepening schedule (and
    /// their --swarm instances) run at the same time; a race stops the pairs after it, and
    /// the race reported is that of the earliest pair in schedule order, the same with any N.
    #[arg(long, short = 'j', value_name = "N", help_heading = "Bounds",
          value_parser = clap::value_parser!(u32).range(1..=1024))]
    jobs: Option<u32>,
    /// Memory budget in MB (default: half of the machine's memory, or of the cgroup's
    /// limit when lower): ladr's own translation is stopped beyond it with a `resources`
    /// error (exit 3), and the CBMC runs at once share it (each an address-space limit of
    /// MB / jobs, at least 256).
    #[arg(long, value_name = "MB", help_heading = "Bounds",
          value_parser = clap::value_parser!(u64).range(64..=1u64 << 40))]
    memory: Option<u64>,
    /// Split each bound pair's check into N swarm instances (by the context in which the
    /// first racing access happens; at most rounds × threads), run under --jobs: a race
    /// found by any instance is a race, "no race" needs every instance (1–1024).
    #[arg(long, default_value_t = 1, value_name = "N", help_heading = "Bounds",
          value_parser = clap::value_parser!(u32).range(1..=1024))]
    swarm: u32,
    /// How many times --deepen may grow the bounds (0–100; default 3, up to 3 rounds and 4
    /// unwindings from 2/2; 6 in SV-COMP mode, up to 5/4).
    #[arg(long, value_name = "N", help_heading = "Bounds",
          value_parser = clap::value_parser!(u32).range(0..=100))]
    deepen_steps: Option<u32>,

    /// Allocations may fail (as when memory runs out): `malloc`, `calloc`, `realloc`,
    /// `reallocarray`, `aligned_alloc`, `memalign`, `valloc` and `strdup` may return NULL, and
    /// `posix_memalign` ENOMEM; also the executions in which they fail are checked (off by
    /// default: they always succeed).
    #[arg(long, help_heading = "Input")]
    malloc_may_fail: bool,
    /// The bytes of a heap block whose size is computed at run time (`malloc(n)`,
    /// `calloc`, `realloc`, `valloc`, `posix_memalign`): an execution that allocates more
    /// stops at that allocation, unexplored (the answer's `heap-size` cut). Larger blocks
    /// make CBMC's formula larger (1–65536).
    #[arg(long, default_value_t = ladr_ir::program::DEFAULT_HEAP_BLOCK, value_name = "BYTES",
          help_heading = "Bounds", value_parser = clap::value_parser!(u32).range(1..=65536))]
    heap_block: u32,
    /// Check with 32-bit int, long and pointers (ILP32; SV-COMP's data model). Without
    /// --32 or --64 the program's own `size_t` decides (a file preprocessed for a 32-bit
    /// target declares it `unsigned int`), else SV-COMP's task file, else LP64.
    #[arg(long = "32", conflicts_with = "lp64", help_heading = "Input")]
    ilp32: bool,
    /// Check with 64-bit long and pointers (LP64, the default; see --32).
    #[arg(long = "64", help_heading = "Input")]
    lp64: bool,
    /// Preprocessor include directory (for `.c` input).
    #[arg(short = 'I', value_name = "DIR", help_heading = "Input")]
    include: Vec<String>,
    /// Preprocessor macro definition NAME[=VALUE] (for `.c` input).
    #[arg(short = 'D', value_name = "NAME[=VALUE]", help_heading = "Input")]
    define: Vec<String>,
    /// Compiler flags given among the arguments (`-std=c11`, `-pthread`), for the
    /// preprocessor: taken out of the command line before clap reads it (`gcc_flags`).
    #[arg(skip)]
    compiler_flags: Vec<String>,
    /// The build's `compile_commands.json` (or the build directory holding it): each FILE it
    /// lists is preprocessed with its own -I/-D/-std/-include options; a FILE it does not
    /// list (the harness) with those of the listed FILEs. -I/-D above are added to all.
    #[arg(long, value_name = "PATH", help_heading = "Input")]
    compile_commands: Option<PathBuf>,

    /// Output format of the answer: also for errors, a document in this format on stdout.
    #[arg(long, value_enum, default_value_t = Format::Text, value_name = "FORMAT",
          help_heading = "Output")]
    format: Format,
    /// Report up to N races (1–1000000): after a race, the check goes on at the same bounds
    /// with each pair of accesses found excluded, until no further race is found, N are
    /// found or the time limit is reached. Each pair is reported once, with its own
    /// interleaving.
    #[arg(long, default_value_t = 1, value_name = "N", help_heading = "Output",
          conflicts_with = "all",
          value_parser = clap::value_parser!(u32).range(1..=1_000_000))]
    max_races: u32,
    /// Report every race within the bounds (no --max-races limit; the time limit still
    /// holds).
    #[arg(long, help_heading = "Output")]
    all: bool,
    /// Show every step of every context of the interleaving.
    #[arg(long, help_heading = "Output")]
    steps: bool,
    /// No progress line on the terminal.
    #[arg(short, long, help_heading = "Output")]
    quiet: bool,
    /// When to use colour in diagnostics.
    #[arg(long, value_enum, default_value_t = Color::Auto, value_name = "WHEN",
          help_heading = "Output")]
    color: Color,
    /// Write a GraphML violation witness of a race (the first one) to FILE (default in
    /// SV-COMP mode: `witness.graphml`).
    #[arg(long, value_name = "FILE", help_heading = "Output")]
    witness: Option<PathBuf>,
    /// The witness's format (SV-COMP mode's default file: `witness.graphml` or
    /// `witness.yml`).
    #[arg(long, value_enum, default_value_t = WitnessFormat::Graphml, value_name = "FORMAT",
          help_heading = "Output")]
    witness_format: WitnessFormat,

    /// SV-COMP mode: FILE may be a task `.yml`; the last output line is `SV-COMP result:
    /// true`, `false(no-data-race)` or `unknown`.
    #[arg(long, help_heading = "SV-COMP")]
    svcomp: bool,
    /// The SV-COMP property file (only no-data-race is supported).
    #[arg(long, value_name = "PRP", help_heading = "SV-COMP")]
    property_file: Option<PathBuf>,

    /// The CBMC binary (default: $LADR_CBMC, then `cbmc` on PATH, then next to the ladr
    /// binary, then the copy installed by scripts/install-cbmc).
    #[arg(long, value_name = "PATH", help_heading = "Debugging")]
    cbmc: Option<PathBuf>,
    /// The SAT solver behind CBMC (docs/decisions/speed.md has the measurements). A
    /// portfolio runs two CBMCs per check, each with half the memory of one.
    #[arg(long, value_enum, default_value_t = SolverArg::Minisat, value_name = "SOLVER",
          help_heading = "Debugging")]
    solver: SolverArg,
    /// Print the program after a stage instead of checking it.
    #[arg(long, value_enum, value_name = "STAGE", help_heading = "Debugging")]
    emit: Option<Emit>,
    /// Keep the sequential program and CBMC's output in DIR (created if missing).
    #[arg(long, value_name = "DIR", help_heading = "Debugging")]
    keep_files: Option<PathBuf>,
    /// Check the invariants between passes (as debug builds always do); a violation is an
    /// internal error naming the pass. For developers.
    #[arg(long, hide = true)]
    check_ir: bool,
    /// Run only the static race analysis and print what it proves (exit 0: proved, 3: not
    /// proved). For measuring the analysis.
    #[arg(long, hide = true)]
    prove_only: bool,
    /// With --emit: cut each thread after its first N visible statements (it then waits
    /// for ever), as the prefix probe does. For developers.
    #[arg(long, hide = true, value_name = "N", requires = "emit")]
    prefix: Option<u32>,
    /// Instrument every shared access and keep every statement that makes one visible,
    /// without the race-free pre-analysis (solo stretches of `main`, read-only, one-thread
    /// and lock-protected objects): a bigger formula, the same answers.
    #[arg(long, help_heading = "Debugging")]
    no_racefree: bool,

    /// Library mode (docs/library-mode.md): no `main` of the program's is run; ladr
    /// generates one that calls each entry FUNCTION on its own thread (an entry named
    /// twice runs on two threads), with arguments of any value of their types.
    #[command(flatten)]
    library: library_cli::LibraryArgs,
    /// Skip the static race analysis that runs before the bounded check (a program it
    /// proves race-free is answered "no data race in any execution" without CBMC).
    #[arg(long, help_heading = "Debugging")]
    no_prove: bool,
    /// List, per shared object, why the static analysis proved its accesses race-free (or
    /// why it could not): after the text report, as `proof` in JSON.
    #[arg(long, help_heading = "Output")]
    explain_proof: bool,
}

/// `--timeout`'s value: a finite number of seconds, at least 0 and at most a year.
fn parse_seconds(s: &str) -> Result<f64, String> {
    let v: f64 = s
        .trim()
        .parse()
        .map_err(|_| format!("`{s}` is not a number of seconds"))?;
    if !v.is_finite() || !(0.0..=31_536_000.0).contains(&v) {
        return Err(format!(
            "{s} is not a time limit: give seconds from 0 (no limit) to 31536000"
        ));
    }
    Ok(v)
}

#[derive(Subcommand, Debug, Clone)]
enum Cmd {
    /// Run ladr on every SV-COMP no-data-race task under DIR and score the answers.
    ///
    /// Exit status: 0 no wrong answer, 1 some wrong answer, 2 usage error.
    Eval(eval_cli::EvalArgs),
    /// Run the race gate of `ladr.toml`: every harness (or those named), every race, each
    /// sorted into new, unchanged (in --baseline) or suppressed.
    ///
    /// Exit status: 0 no new race, 1 a new race, 2 configuration or usage error (with the
    /// file and line), 3 some harness without a verdict and no new race.
    Check(gate_cli::CheckArgs),
    /// Split one bound pair's check into swarm instances for `xargs -P`, GNU parallel or a
    /// Slurm job array (`emit`), and report from their CBMC outputs (`collect`).
    Swarm(swarm_cli::SwarmArgs),
    /// Write a commented starter `ladr.toml` in the current directory.
    Init {
        /// Overwrite an existing `ladr.toml`.
        #[arg(long)]
        force: bool,
        /// The compile database (a file or its directory; default: the first found in
        /// build/, out/, cmake-build-*/, then the current directory).
        #[arg(long, value_name = "PATH")]
        compile_commands: Option<PathBuf>,
    },
}

/// On SIGINT, SIGTERM or SIGHUP (the terminal or the CI runner's session went away): kill
/// CBMC's process group, remove the temporary directory, and exit with 128 + the signal's
/// number (130, 143, 129), as a shell reports a killed command. An uncatchable end
/// (SIGKILL, an OOM kill) still takes CBMC along (`process::die_with_parent`).
fn exit_cleanly_on_signals() {
    use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};
    let Ok(mut signals) = signal_hook::iterator::Signals::new([SIGINT, SIGTERM, SIGHUP]) else {
        return;
    };
    std::thread::spawn(move || {
        if let Some(sig) = signals.forever().next() {
            ladr_cbmc::process::interrupt(sig);
            documents::exit_interrupted(sig);
        }
    });
}

/// How long after the time limit the watchdog gives up on a check still translating: past
/// the vacuity query's grace ([`ladr_check::VACUITY_GRACE`]), whose answer decides whether
/// the "no race" of the finished bound pairs stands.
const WATCHDOG_GRACE: Duration = ladr_check::VACUITY_GRACE.saturating_add(Duration::from_secs(1));

/// The options of `ladr FILE` and `ladr check` written with a separate value (`--rounds 3`,
/// `-I dir`), as clap knows them.
fn options_with_values() -> Vec<String> {
    use clap::CommandFactory;
    let cmd = Cli::command();
    let check = cmd.find_subcommand("check").cloned();
    let mut out = vec![];
    for c in std::iter::once(&cmd).chain(check.as_ref()) {
        for a in c.get_arguments().filter(|a| a.get_action().takes_values()) {
            out.extend(a.get_long().map(|l| format!("--{l}")));
            out.extend(a.get_short().map(|s| format!("-{s}")));
        }
    }
    out
}

fn main() -> ExitCode {
    let split = match gcc_flags::split(std::env::args_os().collect(), &options_with_values()) {
        Ok(split) => split,
        Err(m) => {
            let e = clap::Error::raw(clap::error::ErrorKind::InvalidValue, format!("{m}\n"));
            return documents::usage_error(e, &options_with_values());
        }
    };
    let mut cli = match Cli::try_parse_from(&split.args) {
        Ok(cli) => cli,
        Err(e) => return documents::usage_error(e, &options_with_values()),
    };
    cli.compiler_flags = split.cpp;
    if !split.ignored.is_empty() && !cli.quiet {
        eprintln!(
            "note: ignoring compiler flags that do not change the program for ladr: {}",
            split.ignored.join(" ")
        );
    }
    exit_cleanly_on_signals();
    let args: Vec<std::ffi::OsString> = std::env::args_os().collect();
    if let Some(format) = documents::format_asked(&args) {
        let takes_value = options_with_values();
        documents::on_signal(Box::new(move |signal| {
            let e = Error::new(ErrorKind::Backend, "interrupted");
            documents::document(&args, format, &e, Some(signal), &takes_value)
        }));
    }
    match &cli.command {
        Some(Cmd::Eval(args)) => return ladr_eval::main(&args.clone().into()),
        Some(Cmd::Check(args)) => return gate_cli::check(args, &cli),
        Some(Cmd::Init {
            force,
            compile_commands,
        }) => return gate_cli::init(*force, compile_commands.as_deref()),
        Some(Cmd::Swarm(args)) => return swarm_cli::main(args),
        None => {}
    }
    let file = cli.file[0].clone();
    if let Err(e) = cli.library.check() {
        let mut err_out = StandardStream::stderr(color_choice(cli.color, false));
        return finish(&cli, fail(&cli, &file, &mut err_out, &e, None));
    }
    if cli.library.auto.is_some() {
        return match auto_cli::run(&cli) {
            Ok(code) => ExitCode::from(code),
            Err(e) => {
                let mut err_out = StandardStream::stderr(color_choice(cli.color, false));
                finish(&cli, fail(&cli, &file, &mut err_out, &e, None))
            }
        };
    }
    if cli.svcomp && cli.file.len() > 1 {
        let e = Error::new(
            ErrorKind::Usage,
            format!("SV-COMP mode checks one task file, got {}", cli.file.len()),
        );
        let mut err_out = StandardStream::stderr(color_choice(cli.color, false));
        return finish(&cli, fail(&cli, &file, &mut err_out, &e, None));
    }
    let budget = Budget::new(cli.memory);
    // The check runs on a thread of its own, with a large stack, while this thread keeps
    // the time limit: CBMC is stopped at the limit by the check itself, and the watchdog
    // ends a check that overruns it anywhere else (translation of huge bounds).
    let (tx, rx) = std::sync::mpsc::channel();
    let worker = {
        let (cli, file) = (cli.clone(), file.clone());
        std::thread::Builder::new()
            .name("check".into())
            .stack_size(ladr_c::trees::STACK)
            .spawn(move || {
                let mut err_out = StandardStream::stderr(color_choice(cli.color, false));
                let _ = tx.send(run(&cli, &file, budget, &mut err_out));
            })
    };
    if let Err(e) = worker {
        eprintln!("error: cannot start the check: {e}");
        return ExitCode::from(Done::Unknown as u8);
    }
    use std::sync::mpsc::RecvTimeoutError;
    // The watchdog: the time limit, and the memory budget polled while the check runs.
    let give_up = time_limit(&cli).map(|limit| std::time::Instant::now() + limit + WATCHDOG_GRACE);
    let answer = loop {
        let poll = match give_up {
            Some(t) => t
                .saturating_duration_since(std::time::Instant::now())
                .min(POLL),
            None => POLL,
        };
        match rx.recv_timeout(poll) {
            Err(RecvTimeoutError::Timeout) => {}
            other => break other,
        }
        if let Some(message) = budget.exceeded() {
            ladr_cbmc::process::abandon();
            let e = Error::new(ErrorKind::Resources, message);
            let mut err_out = StandardStream::stderr(color_choice(cli.color, false));
            return finish(&cli, fail(&cli, &file, &mut err_out, &e, None));
        }
        if give_up.is_some_and(|t| std::time::Instant::now() >= t) {
            break Err(RecvTimeoutError::Timeout);
        }
    };
    let code = match answer {
        Ok(code) => code,
        // The check's thread ended without an answer: it panicked (the message is
        // on stderr); CBMC and the temporary directory must not outlive it.
        Err(RecvTimeoutError::Disconnected) => {
            ladr_cbmc::process::abandon();
            let e = Error::new(ErrorKind::Internal, "internal error: the check failed");
            let mut err_out = StandardStream::stderr(color_choice(cli.color, false));
            fail(&cli, &file, &mut err_out, &e, None)
        }
        Err(RecvTimeoutError::Timeout) => {
            ladr_cbmc::process::abandon();
            let e = Error::new(ErrorKind::Backend, watch::out_of_time(cli.timeout));
            let mut err_out = StandardStream::stderr(color_choice(cli.color, false));
            fail(&cli, &file, &mut err_out, &e, None)
        }
    };
    finish(&cli, code)
}

/// The SV-COMP result line (last line of the output, whatever happened before) and the
/// exit status.
fn finish(cli: &Cli, code: Done) -> ExitCode {
    exit_if_interrupted();
    if cli.svcomp {
        let verdict = match code {
            Done::Race => "race",
            Done::NoRace => "no-race",
            _ => "unknown",
        };
        emit(&format!("{}\n", svcomp::result_line(verdict)));
    }
    ExitCode::from(match code {
        Done::Emitted => 0,
        other => other as u8,
    })
}

/// A signal interrupted ladr while the check ended (its CBMC killed by the interruption):
/// exit as the signal's thread does, with 128 + the signal, and print no answer.
fn exit_if_interrupted() {
    if let Some(sig) = ladr_cbmc::process::interrupted() {
        documents::exit_interrupted(sig);
    }
}

/// How a run ended (the exit status).
#[derive(Clone, Copy)]
enum Done {
    NoRace = 0,
    Race = 1,
    Refused = 2,
    Unknown = 3,
    /// `--emit` printed a program.
    Emitted = 255,
}

fn run(cli: &Cli, file: &std::path::Path, budget: Budget, err_out: &mut StandardStream) -> Done {
    let (file, ilp32) = match input(cli, file) {
        Ok(f) => f,
        Err(e) => return fail(cli, file, err_out, &e, None),
    };
    let t0 = std::time::Instant::now();
    let parsed = match load(cli, &file) {
        Ok(p) => p,
        Err(e) => return fail(cli, &file, err_out, &e, None),
    };
    let (parsed, harness_assumptions) = match library_cli::harness(&cli.library, &parsed) {
        Ok(Some(h)) => (h.parsed, h.assumptions),
        Ok(None) => (parsed, vec![]),
        Err(e) => return fail(cli, &file, err_out, &e, Some(&parsed)),
    };
    let parse_time = t0.elapsed().as_secs_f64();
    // Without --32/--64 a preprocessed program's own `size_t` tells its data model.
    let ilp32 = match (cli.ilp32 || cli.lp64, parsed.size_t_is_32_bit()) {
        (false, Some(bits32)) => bits32,
        _ => ilp32,
    };
    let own_dirs = own_dirs(cli, &file);
    let own_files = parsed.map.files().iter().map(String::as_str);
    let own_files = own_files.filter(|f| ladr_project::suppress::under(f, &own_dirs));
    // SV-COMP answers for the program as it is: its comments are not read.
    if !cli.svcomp {
        if let Err(e) = ladr_project::suppress::check_reasons(own_files) {
            return fail(cli, &file, err_out, &e, Some(&parsed));
        }
    }
    if let Some(stage) = cli.emit.map(Emit::stage) {
        return match emit_stage(cli, &parsed, stage) {
            Ok(()) => Done::Emitted,
            Err(e) => fail(cli, &file, err_out, &e, Some(&parsed)),
        };
    }
    let request = match request(cli, ilp32, t0, budget) {
        Ok(r) => r,
        Err(e) => return fail(cli, &file, err_out, &e, Some(&parsed)),
    };
    // A progress line on the terminal (indicatif draws nothing when stderr is not one).
    let bar = progress_line(cli);
    let show = |phase: Phase, b: &Options| {
        bar.set_message(progress_message(&request, &file, phase, b));
    };
    let checked = ladr_check::check(&parsed, &request, &watch::Watch(show));
    bar.finish_and_clear();
    exit_if_interrupted();
    let mut answer = match checked {
        Ok(a) => a,
        Err(e) => return fail(cli, &file, err_out, &e, Some(&parsed)),
    };
    if let (Prove::Only, Some(p)) = (request.prove, &answer.proof) {
        emit(&format!("proved: {}\ntime_s: {:.3}\n", p.proved, p.time_s));
        for l in ladr_report::proof::lines(p) {
            emit(&format!("{l}\n"));
        }
        return if p.proved {
            Done::NoRace
        } else {
            Done::Unknown
        };
    }
    answer.assumptions.splice(0..0, harness_assumptions);
    let mut outcome = report::outcome(&answer, &parsed.path, parse_time);
    outcome.time_limit_s = time_limit(cli).map(|t| t.as_secs_f64());
    outcome.deepening = Some(report::schedule::DeepeningDoc::of(&answer.schedule, t0));
    // SV-COMP answers for the program as it is: no suppression there.
    if !cli.svcomp {
        ladr_project::suppress::mark_in_source(&mut outcome.races, &own_dirs);
    }
    if cli.explain_proof {
        outcome.proof = answer.proof.clone();
    }
    print_report(cli, &outcome, &answer, &parsed, &file);
    write_witness(cli, &outcome, &file, ilp32);
    let done = match &answer.verdict {
        Verdict::Race if outcome.races.iter().all(|r| r.suppression.is_some()) => Done::NoRace,
        Verdict::Race => Done::Race,
        // SV-COMP's `true` claims every execution.
        Verdict::NoRace
            if cli.svcomp
                && svcomp::no_true_because(svcomp::NoRaceBounds {
                    vacuous: answer.bounds.vacuous,
                    threads_cut: answer.bounds.cuts.iter().any(|c| c.as_str() == "threads"),
                    probe: answer.fallback.is_some(),
                    least_bounds: (outcome.deepening.as_ref())
                        .is_some_and(|d| svcomp::reaches_least_bounds(&d.finished)),
                    proved: outcome.proved,
                })
                .is_some() =>
        {
            Done::Unknown
        }
        Verdict::NoRace => Done::NoRace,
        Verdict::Unknown { .. } => Done::Unknown,
    };
    // The answer is out; the watchdog must not wait for the program trees to be freed.
    ladr_c::trees::drop_in_background(parsed);
    done
}

/// The directories whose files are the user's own (where suppression comments count): those
/// of the files given, and the repository's top level (or the current directory).
fn own_dirs(cli: &Cli, file: &std::path::Path) -> Vec<PathBuf> {
    let mut dirs: Vec<PathBuf> = std::iter::once(file)
        .chain(cli.file.iter().map(PathBuf::as_path))
        .map(|f| match f.parent() {
            Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
            _ => PathBuf::from("."),
        })
        .collect();
    dirs.push(report::sarif::root(file));
    dirs
}

/// The C file to check and whether it is for ILP32: `file` itself, or in SV-COMP mode the
/// input of the task file `file` (its property checked, its data model unless
/// `--32`/`--64` says).
fn input(cli: &Cli, file: &std::path::Path) -> Result<(PathBuf, bool), Error> {
    if !cli.svcomp {
        return Ok((file.to_path_buf(), cli.ilp32));
    }
    let input = svcomp::input(file)?;
    let Some(property) = cli.property_file.clone().or(input.property.clone()) else {
        return Err(Error::new(
            ErrorKind::Usage,
            "SV-COMP mode needs --property-file (or a task file naming no-data-race.prp)",
        ));
    };
    svcomp::check_property(&property)?;
    let ilp32 = if !cli.ilp32 && !cli.lp64 {
        input.data_model == Some(svcomp::DataModel::ILP32)
    } else {
        cli.ilp32
    };
    Ok((input.file, ilp32))
}

/// Preprocesses, parses and links `file` and the other files given, with `-I`/`-D` and
/// the compile database's flags.
fn load(cli: &Cli, file: &std::path::Path) -> Result<Parsed, Error> {
    let mut cpp_args: Vec<String> = cli.include.iter().map(|i| format!("-I{i}")).collect();
    cpp_args.extend(cli.define.iter().map(|d| format!("-D{d}")));
    cpp_args.extend(cli.compiler_flags.iter().cloned());
    let db = cli
        .compile_commands
        .as_deref()
        .map(ladr_project::compdb::Database::load)
        .transpose()?;
    let mut files = cli.file.clone();
    files[0] = file.to_path_buf();
    let mut inputs = ladr_project::compdb::inputs(&files, db.as_ref(), &cpp_args);
    for i in &mut inputs {
        i.opts.omp_threads = cli.omp_threads.map(|n| n as usize);
    }
    frontend::link::load_all(&inputs)
}

/// `--emit STAGE`: prints the program after that stage.
fn emit_stage(cli: &Cli, parsed: &Parsed, stage: Stage) -> Result<(), Error> {
    if stage == Stage::Parsed {
        emit(&print_unit(&parsed.unit).text);
        return Ok(());
    }
    let p = translate(parsed.unit.clone(), &options(cli), stage, |_, _| {})?;
    emit(&print_unit(&p.unit).text);
    Ok(())
}

/// The check the command line asks for; `t0` is when reading the input began (the time
/// limit counts from there).
fn request(
    cli: &Cli,
    ilp32: bool,
    t0: std::time::Instant,
    budget: Budget,
) -> Result<Request, Error> {
    if cli.prove_only {
        return Ok(Request::proof_only(options(cli)));
    }
    let cbmc = ladr_cbmc::locate(cli.cbmc.as_deref())
        .map_err(|e| Error::new(ErrorKind::Backend, e.to_string()))?;
    let mut copts = ladr_cbmc::Options::new(cbmc);
    let choice = ladr_cbmc::solver::Choice::from(cli.solver);
    let cadical = match choice {
        ladr_cbmc::solver::Choice::Minisat => None,
        _ => Some(
            ladr_cbmc::solver::locate_cadical()
                .map_err(|e| Error::new(ErrorKind::Backend, e.to_string()))?,
        ),
    };
    copts.solvers = choice
        .solvers(cadical)
        .map_err(|e| Error::new(ErrorKind::Backend, e.to_string()))?;
    copts.ilp32 = ilp32;
    copts.timeout = time_limit(cli);
    let jobs = match (cli.jobs, cli.svcomp) {
        (Some(j), _) => {
            let (jobs, note) = Plan::capped_jobs(j as usize);
            if let Some(note) = note {
                eprintln!("{note}");
            }
            jobs
        }
        (None, true) => 1,
        (None, false) => Plan::default_jobs(),
    };
    let copts_solvers = copts.solvers.len().max(1);
    Ok(Request {
        bounds: options(cli),
        cbmc: copts,
        keep: cli.keep_files.clone(),
        // The check stops its CBMC runs a little before the limit (a twentieth, at most
        // 5 s), so that its own answer, which says which phase ran out and the program's
        // size, is out before the watchdog's (a loaded machine took more than the
        // watchdog's second to read a stopped CBMC's output).
        deadline: time_limit(cli).map(|t| t0 + t - (t / 20).min(Duration::from_secs(5))),
        deepen_steps: if cli.svcomp || !cli.no_deepen {
            cli.deepen_steps.unwrap_or(if cli.svcomp {
                ladr_svcomp::DEEPEN_STEPS
            } else {
                ladr_check::DEEPEN_STEPS
            })
        } else {
            0
        },
        // SV-COMP asks for one race.
        max_races: match (cli.svcomp, cli.all) {
            (true, _) => Some(1),
            (false, true) => None,
            (false, false) => Some(cli.max_races as usize),
        },
        plan: Plan {
            jobs,
            swarm: cli.swarm,
        },
        // A portfolio's CBMCs run side by side: each its share.
        cbmc_memory: Some(budget.per_cbmc(jobs * copts_solvers)),
        prove: if cli.no_prove {
            Prove::Skip
        } else {
            Prove::First
        },
    })
}

/// The progress line's text: the file, the phase, the bounds.
fn progress_message(
    request: &Request,
    file: &std::path::Path,
    phase: Phase,
    b: &Options,
) -> String {
    let what = match phase {
        Phase::Translating => "translating",
        Phase::Cbmc => "CBMC is checking",
    };
    let mut more = match b.exclude.len() {
        0 => String::new(),
        n => format!(", looking for race {}", n + 1),
    };
    if request.is_probe(b) {
        more.push_str(", probe: constant loops cut");
    }
    format!(
        "{}: {what} ({} rounds, {} unwindings{more})",
        file.display(),
        b.rounds,
        b.unwind
    )
}

/// Prints the report in the format asked for.
fn print_report(
    cli: &Cli,
    outcome: &report::Outcome,
    answer: &ladr_check::Answer,
    parsed: &Parsed,
    file: &std::path::Path,
) {
    match cli.format {
        Format::Text => {
            let mut out = StandardStream::stdout(color_choice(cli.color, true));
            report::text::write(&mut out, outcome, parsed, cli.steps);
            if let Some(line) = report::schedule::bounds_line(&answer.schedule) {
                emit(&format!("{line}\n"));
            }
            if let Some(p) = &outcome.proof {
                emit("static analysis:\n");
                for l in ladr_report::proof::lines(p) {
                    emit(&format!("  {l}\n"));
                }
            }
        }
        Format::Json => emit(&format!("{}\n", report::json(outcome))),
        Format::Sarif => {
            let log = report::sarif::sarif(outcome, &report::sarif::root(file));
            emit(&format!("{}\n", report::sarif::to_string(&log)));
        }
        Format::Html => emit(&report::html::html(outcome)),
    }
}

/// Writes the violation witness of a race (`--witness`, and always in SV-COMP mode).
fn write_witness(cli: &Cli, outcome: &report::Outcome, file: &std::path::Path, ilp32: bool) {
    let default_witness = match cli.witness_format {
        WitnessFormat::Graphml => "witness.graphml",
        WitnessFormat::Yaml => "witness.yml",
    };
    let witness = cli
        .witness
        .clone()
        .or_else(|| cli.svcomp.then(|| PathBuf::from(default_witness)));
    let (Some(path), false) = (witness, outcome.races.is_empty()) else {
        return;
    };
    let text = match cli.witness_format {
        WitnessFormat::Graphml => {
            let arch = if ilp32 { "32bit" } else { "64bit" };
            report::witness::graphml(outcome, file, arch)
        }
        WitnessFormat::Yaml => {
            let model = if ilp32 { "ILP32" } else { "LP64" };
            report::yaml_witness::yaml(outcome, file, model).unwrap_or_default()
        }
    };
    if let Err(e) = std::fs::write(&path, text) {
        eprintln!("error: cannot write the witness {}: {e}", path.display());
    }
}

/// The progress line: a spinner with the phase, the bounds and the time spent (hidden with
/// --quiet, in SV-COMP mode, and when stderr is not a terminal).
fn progress_line(cli: &Cli) -> indicatif::ProgressBar {
    // `--prove-only` prints its lines at once: nothing to show meanwhile.
    if cli.quiet || cli.svcomp || cli.prove_only {
        return indicatif::ProgressBar::hidden();
    }
    let bar = indicatif::ProgressBar::new_spinner();
    if let Ok(style) = indicatif::ProgressStyle::with_template("{spinner} {msg} [{elapsed}]") {
        bar.set_style(style);
    }
    bar.enable_steady_tick(Duration::from_millis(200));
    bar
}

/// The translation's options from the command line.
fn options(cli: &Cli) -> Options {
    Options {
        rounds: cli.rounds,
        unwind: cli.unwind,
        max_unwind: cli.max_unwind,
        check_ir: cli.check_ir,
        exclude: vec![],
        malloc_may_fail: cli.malloc_may_fail,
        heap_block: cli.heap_block,
        vacuity_query: false,
        racefree: !cli.no_racefree,
        proof_facts: !cli.no_prove,
        proved: None,
        // SV-COMP's `true` claims every execution: no thread bound unless asked for.
        max_threads: match (cli.max_threads, cli.svcomp) {
            (Some(n), _) => Some(n),
            (None, true) => None,
            (None, false) => Some(ladr_ir::program::DEFAULT_MAX_THREADS),
        },
        sample_loops: true,
        prefix: cli.prefix,
    }
}

use documents::emit;

/// The time limit, if any (`--timeout 0`: none).
fn time_limit(cli: &Cli) -> Option<Duration> {
    (cli.timeout > 0.0).then(|| Duration::from_secs_f64(cli.timeout))
}

/// Colour for stdout (`stdout = true`) or stderr.
fn color_choice(c: Color, stdout: bool) -> ColorChoice {
    let tty = if stdout {
        std::io::IsTerminal::is_terminal(&std::io::stdout())
    } else {
        std::io::IsTerminal::is_terminal(&std::io::stderr())
    };
    match c {
        Color::Auto if tty => ColorChoice::Auto,
        Color::Auto | Color::Never => ColorChoice::Never,
        Color::Always => ColorChoice::Always,
    }
}

/// Reports an error that ended the check before a verdict: the diagnostic on stderr, and
/// with `--format json|sarif` a valid document on stdout as well (so `ladr … --format
/// sarif > ladr.sarif` never uploads an empty file).
fn fail(
    cli: &Cli,
    input: &std::path::Path,
    out: &mut StandardStream,
    e: &Error,
    parsed: Option<&frontend::Parsed>,
) -> Done {
    let map = parsed.map(|p| &p.map);
    render(out, e, map);
    if cli.format != Format::Text {
        let mut o = report::error_outcome(&input.display().to_string(), e, map, &options(cli));
        o.time_limit_s = time_limit(cli).map(|t| t.as_secs_f64());
        match cli.format {
            Format::Json => emit(&format!("{}\n", report::json(&o))),
            Format::Html => emit(&report::html::html(&o)),
            _ => {
                let log = report::sarif::sarif(&o, &report::sarif::root(input));
                emit(&format!("{}\n", report::sarif::to_string(&log)));
            }
        }
    }
    if e.kind.no_verdict() {
        Done::Unknown
    } else {
        Done::Refused
    }
}
