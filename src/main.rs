//! The `ladr` command line. All work is done by the library; this file parses options,
//! calls it, and prints the result.

use clap::{Parser, Subcommand, ValueEnum};
use codespan_reporting::term::termcolor::{ColorChoice, StandardStream};
use ladr_c::diag::{render, Error, ErrorKind};
use ladr_c::frontend;
use ladr_c::print::print_unit;
use ladr_check::{check_deepening, Verdict};
use ladr_ir::program::Options;
use ladr_report as report;
use ladr_seq::pipeline::{translate, Stage};
use ladr_svcomp as svcomp;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum Format {
    /// A diagnostic with both accesses in the source and the interleaving.
    Text,
    /// The schema documented in the README (`verdict`, `bounds`, `race`, `stats`, `tool`).
    Json,
    /// SARIF 2.1.0 (GitHub code scanning); URIs relative to the git top level or the cwd.
    Sarif,
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

/// Options of `ladr eval`.
#[derive(clap::Args, Debug, Clone)]
struct EvalArgs {
    /// Directory searched recursively for SV-COMP task files (`*.yml`) whose properties
    /// include `no-data-race.prp`.
    dir: PathBuf,
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
}

impl From<EvalArgs> for ladr_eval::Args {
    fn from(a: EvalArgs) -> Self {
        ladr_eval::Args {
            dir: a.dir,
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
        }
    }
}

#[derive(Clone, Copy, Debug, ValueEnum)]
enum Color {
    Auto,
    Always,
    Never,
}

/// Finds data races in multi-threaded C programs (POSIX threads) by lazy sequentialization
/// and bounded model checking with CBMC.
///
/// Exit status: 0 no race found within the bounds, 1 race found, 2 usage error or input
/// ladr cannot handle (the message names the construct and its location), 3 no verdict
/// (timeout, CBMC failure, internal error).
///
/// `ladr eval DIR` runs ladr over the SV-COMP data-race tasks under DIR (see `ladr eval --help`).
#[derive(Parser, Debug)]
#[command(name = "ladr", version, about, long_about)]
#[command(args_conflicts_with_subcommands = true, subcommand_negates_reqs = true)]
struct Cli {
    #[command(subcommand)]
    command: Option<Cmd>,
    /// The C file to check (`.i` = already preprocessed; anything else goes through `gcc -E`).
    #[arg(required = true)]
    file: Option<PathBuf>,
    /// Round-robin rounds K: each thread runs at most K contexts.
    #[arg(long, default_value_t = 2)]
    rounds: u32,
    /// Loop unwinding and recursion depth U.
    #[arg(long, default_value_t = 2)]
    unwind: u32,
    /// Loops with a constant bound up to this many iterations are unwound completely.
    #[arg(long, default_value_t = 100)]
    max_unwind: u32,
    /// Check with 32-bit int, long and pointers (ILP32; SV-COMP's data model).
    #[arg(long = "32", conflicts_with = "lp64")]
    ilp32: bool,
    /// Check with 64-bit long and pointers (LP64, the default).
    #[arg(long = "64")]
    lp64: bool,
    /// Print the program after a stage instead of checking it.
    #[arg(long, value_enum)]
    emit: Option<Emit>,
    /// The CBMC binary (default: $LADR_CBMC, then `cbmc` on PATH, then the copy installed
    /// by scripts/install-cbmc).
    #[arg(long)]
    cbmc: Option<PathBuf>,
    /// Time limit in seconds for the whole check: CBMC is stopped when it is reached
    /// (verdict: unknown, or with --deepen the answer of the deepest finished bounds).
    #[arg(long)]
    timeout: Option<f64>,
    /// Keep the sequential program and CBMC's output in this directory.
    #[arg(long)]
    keep_files: Option<PathBuf>,
    /// Preprocessor include directory (for `.c` input).
    #[arg(short = 'I', value_name = "DIR")]
    include: Vec<String>,
    /// Preprocessor macro definition NAME[=VALUE] (for `.c` input).
    #[arg(short = 'D', value_name = "MACRO")]
    define: Vec<String>,
    /// When to use colour in diagnostics.
    #[arg(long, value_enum, default_value_t = Color::Auto)]
    color: Color,
    /// Output format of the verdict.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    format: Format,
    /// Show every step of every context of the interleaving.
    #[arg(short, long)]
    verbose: bool,
    /// SV-COMP mode: FILE may be a task `.yml`; the last output line is `SV-COMP result:
    /// true`, `false(no-data-race)` or `unknown`.
    #[arg(long)]
    svcomp: bool,
    /// The SV-COMP property file (only no-data-race is supported).
    #[arg(long, value_name = "PRP")]
    property_file: Option<PathBuf>,
    /// After "no race", check again with larger bounds while --timeout leaves time (from
    /// 2/2: 3/2, 4/2, 3/3, 3/4, 4/4, then rounds and unwinding in turn). On in SV-COMP mode. The answer is the
    /// first race found, or "no race" for the deepest bounds that finished.
    #[arg(long, requires = "timeout")]
    deepen: bool,
    /// How many times --deepen may grow the bounds.
    #[arg(long, default_value_t = 6, value_name = "N")]
    deepen_steps: u32,
    /// Write a GraphML violation witness of a race here (default in SV-COMP mode:
    /// `witness.graphml`).
    #[arg(long, value_name = "FILE")]
    witness: Option<PathBuf>,
    /// Check the invariants between passes (as debug builds always do); a violation is an
    /// internal error naming the pass. For developers.
    #[arg(long, hide = true)]
    check_ir: bool,
}

#[derive(Subcommand, Debug)]
enum Cmd {
    /// Run ladr on every SV-COMP no-data-race task under DIR and score the answers.
    ///
    /// Exit status: 0 no wrong answer, 1 some wrong answer, 2 usage error.
    Eval(EvalArgs),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let file = match (&cli.command, &cli.file) {
        (Some(Cmd::Eval(args)), _) => return ladr_eval::main(&args.clone().into()),
        (None, Some(file)) => file.clone(),
        (None, None) => unreachable!("clap requires FILE without a subcommand"),
    };
    let mut err_out = StandardStream::stderr(color_choice(cli.color, false));
    let code = run(&cli, &file, &mut err_out);
    if cli.svcomp {
        // The verdict line is the last line of the output, whatever happened before.
        let verdict = match code {
            Done::Race => "race",
            Done::NoRace => "no-race",
            _ => "unknown",
        };
        println!("{}", svcomp::result_line(verdict));
    }
    ExitCode::from(match code {
        Done::Emitted => 0,
        other => other as u8,
    })
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

fn run(cli: &Cli, file: &std::path::Path, err_out: &mut StandardStream) -> Done {
    let mut ilp32 = cli.ilp32;
    let file = if cli.svcomp {
        let input = match svcomp::input(file) {
            Ok(i) => i,
            Err(e) => return fail(err_out, &e, None),
        };
        let Some(property) = cli.property_file.clone().or(input.property.clone()) else {
            let e = Error::new(
                ErrorKind::Usage,
                "SV-COMP mode needs --property-file (or a task file naming no-data-race.prp)",
            );
            return fail(err_out, &e, None);
        };
        if let Err(e) = svcomp::check_property(&property) {
            return fail(err_out, &e, None);
        }
        if !cli.ilp32 && !cli.lp64 {
            ilp32 = input.data_model == Some(svcomp::DataModel::ILP32);
        }
        input.file
    } else {
        file.to_path_buf()
    };
    let mut cpp_args: Vec<String> = cli.include.iter().map(|i| format!("-I{i}")).collect();
    cpp_args.extend(cli.define.iter().map(|d| format!("-D{d}")));
    let fe = frontend::Options {
        cpp_args,
        preprocessed: false,
    };
    let t0 = std::time::Instant::now();
    let parsed = match frontend::load(&file, &fe) {
        Ok(p) => p,
        Err(e) => return fail(err_out, &e, None),
    };
    let parse_time = t0.elapsed().as_secs_f64();
    let opts = Options {
        rounds: cli.rounds,
        unwind: cli.unwind,
        max_unwind: cli.max_unwind,
        check_ir: cli.check_ir,
    };
    if let Some(stage) = cli.emit.map(Emit::stage) {
        if stage == Stage::Parsed {
            print!("{}", print_unit(&parsed.unit).text);
            return Done::Emitted;
        }
        return match translate(parsed.unit.clone(), &opts, stage, |_, _| {}) {
            Ok(p) => {
                print!("{}", print_unit(&p.unit).text);
                Done::Emitted
            }
            Err(e) => fail(err_out, &e, Some(&parsed)),
        };
    }
    let cbmc = match ladr_cbmc::locate(cli.cbmc.as_deref()) {
        Ok(c) => c,
        Err(e) => {
            eprintln!("error: {e}");
            return Done::Unknown;
        }
    };
    let mut copts = ladr_cbmc::Options::new(cbmc);
    copts.ilp32 = ilp32;
    copts.timeout = cli.timeout.map(Duration::from_secs_f64);
    let steps = if cli.deepen || cli.svcomp {
        cli.deepen_steps
    } else {
        0
    };
    let deadline = cli.timeout.map(|t| t0 + Duration::from_secs_f64(t));
    let checked = check_deepening(
        &parsed,
        &opts,
        &copts,
        cli.keep_files.as_deref(),
        deadline,
        steps,
    );
    let (report, opts) = match checked {
        Ok(r) => r,
        Err(e) => return fail(err_out, &e, Some(&parsed)),
    };
    let outcome = report::outcome(&report, &parsed, &opts, parse_time);
    match cli.format {
        Format::Text => {
            let mut out = StandardStream::stdout(color_choice(cli.color, true));
            report::text::write(&mut out, &outcome, &parsed, cli.verbose);
        }
        Format::Json => println!("{}", report::json(&outcome)),
        Format::Sarif => {
            let log = report::sarif::sarif(&outcome, &report::sarif::root(&file));
            println!("{}", report::sarif::to_string(&log));
        }
    }
    let witness = cli
        .witness
        .clone()
        .or_else(|| cli.svcomp.then(|| PathBuf::from("witness.graphml")));
    if let (Some(path), Some(_)) = (witness, &outcome.race) {
        let arch = if ilp32 { "32bit" } else { "64bit" };
        let xml = report::witness::graphml(&outcome, &file, arch);
        if let Err(e) = std::fs::write(&path, xml) {
            eprintln!("error: cannot write the witness {}: {e}", path.display());
        }
    }
    match &report.verdict {
        Verdict::Race { .. } => Done::Race,
        Verdict::NoRace => Done::NoRace,
        Verdict::Unknown { .. } => Done::Unknown,
    }
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

fn fail(out: &mut StandardStream, e: &Error, parsed: Option<&frontend::Parsed>) -> Done {
    render(out, e, parsed.map(|p| &p.map));
    match e.kind {
        ErrorKind::Backend | ErrorKind::Internal => Done::Unknown,
        _ => Done::Refused,
    }
}
