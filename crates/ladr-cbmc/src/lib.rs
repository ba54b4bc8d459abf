//! Running CBMC on the sequentialised program and reading its verdict.
//!
//! This is the only module that starts CBMC (architecture invariant: the passes never run
//! processes). It finds the `cbmc` binary ([`locate`]), runs it on one `.i` file with a
//! fixed set of flags ([`run`]), and turns CBMC's `--json-ui` output into a [`Verdict`]
//! with the counterexample trace as plain [`Step`]s. Mapping the trace back to the user's
//! program is not done here: steps keep the `.i` file's lines and CBMC's own names.
//!
//! ```text
//! seq.i ──► cbmc seq.i --no-standard-checks --no-built-in-assertions --stop-on-fail --json-ui --trace --verbosity 8
//!       ──► exit 0  → Verdict::Verified
//!           exit 10 → Verdict::Violated { property, description, trace }
//!           other   → Verdict::Unknown { reason: CBMC's ERROR messages or stderr tail }
//! ```
//!
//! CBMC 6.6 facts it relies on (DESIGN.md §7): the `.i` suffix makes CBMC skip its
//! preprocessor; only exits 0 and 10 are verdicts; `--json-ui` prints one JSON array.
//! Two shapes of that array occur: without `--stop-on-fail` a `{"result": [...]}` element
//! lists every property with status `SUCCESS`/`FAILURE`; with `--stop-on-fail` and a
//! violation, the failed property is a top-level element of its own with status `failed`
//! (lower case) and its `trace`. Both are accepted. Source lines are JSON *strings*.
//!
//! Follows kani-driver's shape: arguments built as a list with a comment per flag, the
//! output read with serde types, the verdict taken from CBMC's exit status and property
//! statuses.
//!
//! Architecture invariant: this crate knows nothing of C, of the passes or of the user's
//! program: it runs CBMC on a file and reads what CBMC said. The retry policy
//! ([`run_with_retries`]) lives here, beside the flags it changes, so callers ask for a
//! verdict and never match CBMC's failure messages themselves.
//!
//! Beside CBMC, the process's means that every layer above uses: [`memory`] (the memory
//! budget of a run, shared by its CBMCs) and [`files`] (writing CBMC's input and output, and
//! any other file, never through a planted link).

use std::ffi::OsString;
use std::fmt;
use std::io;
use std::os::unix::process::{CommandExt, ExitStatusExt};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, ExitStatus, Stdio};
use std::thread;
use std::time::{Duration, Instant};

use output::describe_exit;

pub mod files;
pub mod memory;
pub mod names;
mod output;
pub mod process;
pub mod solver;

pub use output::{interpret, out_of_memory, phase_reached, phase_times, Phase, PhaseTimes};
pub use solver::Solver;

/// The file name of the sequential program given to CBMC (in a temporary directory, in
/// `--keep-files DIR`, in a swarm instance's directory); the steps of CBMC's trace in this
/// file are the program's own.
pub const SEQ_FILE: &str = "seq.i";

/// Environment variable naming the CBMC binary to use.
pub const ENV_VAR: &str = "LADR_CBMC";

/// Environment variable naming ladr's user-level directory (where `scripts/install-cbmc`
/// puts CBMC): `$LADR_HOME`, else `$XDG_DATA_HOME/ladr`, else `~/.local/share/ladr`.
pub const HOME_VAR: &str = "LADR_HOME";

/// The launcher `scripts/install-cbmc` writes: `bin/cbmc` in ladr's user-level directory.
pub fn installed_launcher() -> Option<PathBuf> {
    let env = |v: &str| {
        std::env::var_os(v)
            .filter(|s| !s.is_empty())
            .map(PathBuf::from)
    };
    let home = env(HOME_VAR)
        .or_else(|| env("XDG_DATA_HOME").map(|d| d.join("ladr")))
        .or_else(|| env("HOME").map(|h| h.join(".local/share/ladr")))?;
    Some(home.join("bin/cbmc"))
}

// ---------------------------------------------------------------------------------------
// Locating CBMC
// ---------------------------------------------------------------------------------------

/// CBMC could not be found; `Display` says how to get it.
#[derive(Debug, Clone)]
pub struct NotFound {
    /// What was looked at, in order, for the message.
    pub tried: Vec<String>,
}

impl fmt::Display for NotFound {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "CBMC (version 6.6 or newer) was not found.")?;
        writeln!(f, "Looked at:")?;
        for t in &self.tried {
            writeln!(f, "  - {t}")?;
        }
        writeln!(f, "To install it, do one of:")?;
        writeln!(
            f,
            "  - run `scripts/install-cbmc` from the ladr source tree (installs into ~/.local/share/ladr)"
        )?;
        writeln!(f, "  - put cbmc >= 6.6 on PATH")?;
        write!(
            f,
            "  - set {ENV_VAR}=/path/to/cbmc, or pass --cbmc /path/to/cbmc"
        )
    }
}

impl std::error::Error for NotFound {}

/// Finds the CBMC binary: `explicit` (from `--cbmc`) if given, else `$LADR_CBMC`, else
/// `cbmc` on `PATH`, else `cbmc` next to the running executable, else the launcher
/// `scripts/install-cbmc` installed in ladr's user-level directory ([`installed_launcher`]).
/// Nothing depends on where the source tree was when ladr was built.
///
/// An explicit path or `$LADR_CBMC` that does not name an existing program is an error,
/// not a reason to fall back: the user asked for that binary. The version is not checked
/// here (that would cost a process start per call).
pub fn locate(explicit: Option<&Path>) -> Result<PathBuf, NotFound> {
    let mut tried = Vec::new();
    let named = |p: &Path| -> Option<PathBuf> {
        if p.components().count() > 1 {
            p.is_file().then(|| p.to_path_buf())
        } else {
            which::which(p).ok()
        }
    };
    if let Some(p) = explicit {
        return named(p).ok_or_else(|| NotFound {
            tried: vec![format!("--cbmc {}: no such program", p.display())],
        });
    }
    if let Some(v) = std::env::var_os(ENV_VAR).filter(|v| !v.is_empty()) {
        let p = PathBuf::from(&v);
        return named(&p).ok_or_else(|| NotFound {
            tried: vec![format!("{ENV_VAR}={}: no such program", p.display())],
        });
    }
    tried.push(format!("{ENV_VAR}: not set"));
    match which::which("cbmc") {
        Ok(p) => return Ok(p),
        Err(_) => tried.push("`cbmc` on PATH: not found".to_string()),
    }
    // Next to the ladr binary (an installation that ships CBMC beside ladr).
    if let Some(dir) = std::env::current_exe()
        .ok()
        .and_then(|e| Some(e.parent()?.to_path_buf()))
    {
        let beside = dir.join("cbmc");
        if beside.is_file() {
            return Ok(beside);
        }
        tried.push(format!("{}: not there", beside.display()));
    }
    match installed_launcher() {
        Some(l) if l.is_file() => return Ok(l),
        Some(l) => tried.push(format!("{}: not installed", l.display())),
        None => tried.push(format!("${HOME_VAR}, $XDG_DATA_HOME and $HOME: not set")),
    }
    Err(NotFound { tried })
}

// ---------------------------------------------------------------------------------------
// Running CBMC
// ---------------------------------------------------------------------------------------

/// How to run CBMC.
#[derive(Debug, Clone)]
pub struct Options {
    /// The CBMC binary (see [`locate`]).
    pub cbmc: PathBuf,
    /// Check with 32-bit `int`, `long` and pointers (SV-COMP's ILP32 tasks).
    pub ilp32: bool,
    /// Kill CBMC after this long; the verdict is then [`Verdict::Unknown`].
    pub timeout: Option<Duration>,
    /// Kill CBMC at this instant at the latest (the end of the caller's time limit, which
    /// also covers the work done before CBMC starts).
    pub deadline: Option<Instant>,
    /// Appended to the command line as they are (e.g. `--unwind 2`).
    pub extra_args: Vec<String>,
    /// CBMC's `TMPDIR`: it writes temporary files (its library's preprocessing), which
    /// stay behind when it is killed; in the caller's own temporary directory they go with
    /// it.
    pub temp_dir: Option<PathBuf>,
    /// Kill CBMC (and its process group) as soon as this is set: another check of the same
    /// question already answered it (`--jobs`). The verdict is then [`Verdict::Unknown`].
    pub cancel: Option<std::sync::Arc<std::sync::atomic::AtomicBool>>,
    /// The SAT solvers: one, or several run at once as a portfolio by
    /// [`run_with_retries`] (the first verdict wins). Empty means MiniSat.
    pub solvers: Vec<Solver>,
    /// Set when another run of a portfolio gave its verdict: this run is killed like a
    /// cancelled one.
    rival: Option<std::sync::Arc<std::sync::atomic::AtomicBool>>,
}

impl Options {
    /// These options with uninterpreted functions for arrays (`--arrays-uf-always`), as
    /// [`run_with_retries`] asks for them first.
    pub fn with_arrays_uf(mut self) -> Options {
        self.extra_args.push("--arrays-uf-always".into());
        self
    }

    /// Options with defaults: LP64, no timeout, no extra arguments.
    pub fn new(cbmc: PathBuf) -> Self {
        Options {
            cbmc,
            ilp32: false,
            timeout: None,
            deadline: None,
            extra_args: Vec::new(),
            temp_dir: None,
            cancel: None,
            solvers: vec![Solver::Minisat],
            rival: None,
        }
    }

    /// These options for a run that must end by `deadline`: the time left as the timeout
    /// (at least `least`, so that a run started at the limit still starts and stops at
    /// once) and the deadline itself. The one place a check's time limit becomes CBMC's.
    pub fn until(&self, deadline: Instant, least: Duration) -> Options {
        let left = deadline.saturating_duration_since(Instant::now());
        Options {
            timeout: Some(left.max(least)),
            deadline: Some(deadline),
            ..self.clone()
        }
    }

    /// These options for a run of at most `share` from now (a probe's or a query's part of
    /// the time left).
    pub fn for_at_most(&self, share: Duration) -> Options {
        Options {
            timeout: Some(share),
            deadline: Some(Instant::now() + share),
            ..self.clone()
        }
    }
}

/// What one CBMC run gave.
#[derive(Debug, Clone)]
pub struct Outcome {
    pub verdict: Verdict,
    /// CBMC's exit status; `None` if it was killed by a signal (including our timeout).
    pub exit_code: Option<i32>,
    /// Wall-clock time from start to exit.
    pub wall: Duration,
    /// True if CBMC was killed because `Options::timeout` passed.
    pub timed_out: bool,
    /// Size of the last SAT formula CBMC reported, if any.
    pub formula: Option<FormulaSize>,
    pub stdout: String,
    pub stderr: String,
}

/// CBMC's answer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Verdict {
    /// Exit 0: every property holds (within the bounds of the program given).
    Verified,
    /// Exit 10: `property` (CBMC's id, e.g. `main.assertion.1`) fails.
    Violated {
        property: String,
        /// The assertion's message (the second argument of `__CPROVER_assert`).
        description: String,
        /// The counterexample, unfiltered; see [`Step::is_internal`].
        trace: Vec<Step>,
    },
    /// No verdict: a timeout, an error exit (6 input error, 64 bad option, 134 crash…),
    /// a signal, or output that could not be read.
    Unknown { reason: String },
}

/// The SAT formula's size, from CBMC's "N variables, M clauses" message.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FormulaSize {
    pub variables: u64,
    pub clauses: u64,
}

/// One step of a counterexample trace, flattened from CBMC's JSON.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Step {
    /// CBMC's `stepType`: `assignment`, `function-call`, `function-return`,
    /// `location-only`, `failure`, `assume`, `output`, …
    pub kind: String,
    pub file: Option<String>,
    pub line: Option<u32>,
    pub column: Option<u32>,
    /// The function the step is in (its source location's function).
    pub function: Option<String>,
    /// For `function-call`/`function-return`: the function called or returned from.
    pub callee: Option<String>,
    /// For assignments: the assigned lvalue as CBMC prints it (e.g. `x`, `s.f`, `a[1l]`).
    pub lhs: Option<String>,
    /// For assignments: the value as CBMC prints it (its `data` string; structs and
    /// arrays are rendered as `{ .a=1, .b=2 }` / `{ [0]=1, [1]=2 }`).
    pub value: Option<String>,
    /// CBMC's thread number (0 for a sequential program).
    pub thread: u32,
    /// CBMC marks steps in its own library and initialisation as hidden.
    pub hidden: bool,
}

impl Step {
    /// True for steps that are CBMC's own bookkeeping rather than the program's:
    /// shadow-memory writes (`SM__…`) and `__CPROVER_…` variables.
    pub fn is_internal(&self) -> bool {
        self.lhs
            .as_deref()
            .is_some_and(|l| l.starts_with("SM__") || l.contains("__CPROVER"))
    }

    /// The assigned value as an unsigned integer (`5`, or `5u` for an unsigned variable).
    pub fn unsigned_value(&self) -> Option<u64> {
        let v = self.value.as_deref()?.trim();
        v.trim_end_matches(['u', 'U']).parse().ok()
    }
}

/// Running CBMC failed before any verdict could be read.
#[derive(Debug)]
pub enum Error {
    /// The program could not be started.
    Spawn { cbmc: PathBuf, source: io::Error },
    /// Waiting for or talking to the process failed.
    Io(io::Error),
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Spawn { cbmc, source } => {
                write!(f, "cannot start CBMC ({}): {source}", cbmc.display())
            }
            Error::Io(e) => write!(f, "error while running CBMC: {e}"),
        }
    }
}

impl std::error::Error for Error {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Error::Spawn { source, .. } => Some(source),
            Error::Io(e) => Some(e),
        }
    }
}

impl From<io::Error> for Error {
    fn from(e: io::Error) -> Self {
        Error::Io(e)
    }
}

/// The command-line arguments (after the program name) for checking `seq_file`.
pub fn arguments(opts: &Options, seq_file: &Path) -> Vec<OsString> {
    // The file should end in `.i`: CBMC then takes it as preprocessed C and does not run
    // its own preprocessor (which needs gcc and, with --32, 32-bit headers).
    let mut args: Vec<OsString> = vec![seq_file.into()];
    // No automatic pointer/bounds/overflow/malloc-may-fail checks: the only properties are
    // ladr's own assertions. Also, with the default malloc-may-fail, CBMC 6.6 aborts
    // (exit 134) on shadow memory of heap objects.
    args.push("--no-standard-checks".into());
    // Nor the preconditions of CBMC's library models (`memcpy destination region
    // writeable`, `free argument must be dynamic object`, an `assert` of the program): a
    // failed one is no race, and CBMC, which stops at the first failed property, reported
    // it as one whose access sites the trace never set.
    args.push("--no-built-in-assertions".into());
    // One violated race assertion is enough; also makes CBMC print its trace.
    args.push("--stop-on-fail".into());
    args.push("--json-ui".into());
    args.push("--trace".into());
    // Verbosity 8 ("statistics") is the lowest that prints "N variables, M clauses".
    args.push("--verbosity".into());
    args.push("8".into());
    if opts.ilp32 {
        // ILP32: 32-bit int, long and pointers.
        args.push("--32".into());
    }
    // The solver of this run (a portfolio's runs each have one): nothing for MiniSat.
    if let Some(solver) = opts.solvers.first() {
        args.extend(solver.arguments());
    }
    args.extend(opts.extra_args.iter().map(OsString::from));
    args
}

/// Runs CBMC on `seq_file` (a sequential C program, preferably named `*.i`).
///
/// Errors only if CBMC cannot be started or waited for; everything CBMC itself does
/// (including crashing or timing out) is an [`Outcome`].
pub fn run(opts: &Options, seq_file: &Path) -> Result<Outcome, Error> {
    if let Some(refused) = solver::refused_temp_dir(opts) {
        return Ok(refused);
    }
    let mut cmd = Command::new(&opts.cbmc);
    cmd.args(arguments(opts, seq_file))
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        // Own process group, so a timeout kills anything CBMC started too.
        .process_group(0);
    process::die_with_parent(&mut cmd);
    if let Some(dir) = &opts.temp_dir {
        cmd.env("TMPDIR", dir);
    }
    let start = Instant::now();
    let mut child = cmd.spawn().map_err(|source| Error::Spawn {
        cbmc: opts.cbmc.clone(),
        source,
    })?;
    // Killed with its group if ladr is interrupted.
    let _group = process::track_group(child.id());
    // Read both pipes on threads: CBMC's JSON can be larger than a pipe buffer, and
    // reading one pipe while CBMC blocks on the other would deadlock.
    let out = process::phase_reader(child.stdout.take());
    let err = process::reader(child.stderr.take());

    let deadline = match (opts.timeout.map(|t| start + t), opts.deadline) {
        (Some(a), Some(b)) => Some(a.min(b)),
        (a, b) => a.or(b),
    };
    let (status, timed_out) = wait_with_timeout(&mut child, deadline, opts)?;
    let wall = start.elapsed();
    let stdout = out.join().unwrap_or_default();
    let stderr = err.join().unwrap_or_default();

    let exit_code = status.code();
    let (mut verdict, formula) = interpret(exit_code, &stdout, &stderr);
    if cancelled(opts) {
        verdict = Verdict::Unknown {
            reason: "CBMC was stopped: another check answered first".into(),
        };
    } else if timed_out {
        verdict = Verdict::Unknown {
            reason: format!(
                "CBMC timed out after {:.1} s",
                opts.timeout.unwrap_or_default().as_secs_f64()
            ),
        };
    } else if let (Some(sig), Verdict::Unknown { reason }) = (status.signal(), &mut verdict) {
        let name = match sig {
            6 => " (SIGABRT)",
            9 => " (SIGKILL: out of memory?)",
            11 => " (SIGSEGV)",
            15 => " (SIGTERM)",
            _ => "",
        };
        // `interpret`'s reason without its "did not exit normally": what CBMC said last.
        let said = reason
            .strip_prefix(&format!("{}: ", describe_exit(None)))
            .unwrap_or(reason);
        *reason = format!("CBMC crashed: killed by signal {sig}{name}; {said}");
    }
    Ok(Outcome {
        verdict,
        exit_code,
        wall,
        timed_out,
        formula,
        stdout,
        stderr,
    })
}

/// `--object-bits` values tried in turn when CBMC reports too many addressed objects for
/// its default of 8.
const OBJECT_BITS: [u32; 2] = [12, 16];

/// Runs CBMC like [`run`], again — in the time left of `opts.timeout` — when it fails for
/// a reason an option changes (the retry policy, beside the flags it changes):
/// * with `arrays_uf` (`--arrays-uf-always`: uninterpreted functions for arrays, which keep
///   the formula small for arrays of thousands of elements, where flattening costs millions
///   of variables; for small arrays flattening is faster, measured), CBMC 6.6's array
///   theory fails an invariant on some arrays inside structs ("unexpected array
///   expression: member with 'struct'"): then the flattening (the default) decides;
/// * more objects than CBMC's pointer encoding numbers by default (256, "too many
///   addressed objects"): more bits for the object, fewer for the offset
///   (`--object-bits` 12, then 16).
///
/// The outcome's `wall` is the time of all runs together.
///
/// With several [`Options::solvers`] each runs at once in a CBMC of its own (with this
/// policy each): the first verdict is the outcome and kills the others; with none, the
/// first solver's outcome.
pub fn run_with_retries(
    opts: &Options,
    seq_file: &Path,
    arrays_uf: bool,
) -> Result<Outcome, Error> {
    if opts.solvers.len() > 1 {
        return portfolio(opts, seq_file, arrays_uf);
    }
    let mut uf = arrays_uf;
    let mut more_bits = OBJECT_BITS.iter().copied();
    let mut object_bits: Option<u32> = None;
    let mut spent = Duration::ZERO;
    loop {
        let mut this = opts.clone();
        this.timeout = opts.timeout.map(|t| t.saturating_sub(spent));
        if uf {
            this = this.with_arrays_uf();
        }
        if let Some(bits) = object_bits {
            // Two arguments: CBMC 6.6 rejects `--object-bits=N` (exit 64).
            this.extra_args.push("--object-bits".into());
            this.extra_args.push(bits.to_string());
        }
        let mut out = run(&this, seq_file)?;
        out.wall += spent;
        spent = out.wall;
        if out.timed_out || cancelled(opts) {
            return Ok(out);
        }
        if uf && out.exit_code.is_none() && out.stderr.contains("Invariant check failed") {
            uf = false;
            continue;
        }
        // (With --json-ui the message is in the JSON on stdout.)
        let says = |m: &str| out.stderr.contains(m) || out.stdout.contains(m);
        if says("too many addressed objects") {
            object_bits = more_bits.next();
            if object_bits.is_some() {
                continue;
            }
        }
        return Ok(out);
    }
}

/// The runs of a portfolio ([`run_with_retries`] with several solvers): each solver in a
/// CBMC of its own, on threads; the first outcome with a verdict (verified or violated)
/// sets the others' `rival` flag, which kills them. Without any verdict, the outcome of
/// the first solver that was not stopped (a timeout, an error: what MiniSat said first).
fn portfolio(opts: &Options, seq_file: &Path, arrays_uf: bool) -> Result<Outcome, Error> {
    use std::sync::atomic::{AtomicBool, Ordering};
    use std::sync::{mpsc, Arc};
    let rival = Arc::new(AtomicBool::new(false));
    let (tx, rx) = mpsc::channel();
    thread::scope(|s| {
        for (i, solver) in opts.solvers.iter().enumerate() {
            let mut one = opts.clone();
            one.solvers = vec![solver.clone()];
            one.rival = Some(rival.clone());
            let tx = tx.clone();
            s.spawn(move || {
                let _ = tx.send((i, run_with_retries(&one, seq_file, arrays_uf)));
            });
        }
        drop(tx);
        let mut others: Vec<(usize, Result<Outcome, Error>)> = Vec::new();
        for (i, res) in rx.iter() {
            let decided = matches!(&res, Ok(o) if !matches!(o.verdict, Verdict::Unknown { .. }));
            if decided && !rival.swap(true, Ordering::SeqCst) {
                return res;
            }
            others.push((i, res));
        }
        // No verdict: the first solver's outcome.
        others.sort_by_key(|(i, _)| *i);
        others
            .into_iter()
            .map(|(_, r)| r)
            .next()
            .unwrap_or_else(|| Err(Error::Io(io::Error::other("no solver ran"))))
    })
}

/// Has the caller cancelled this run, or another solver of its portfolio answered?
fn cancelled(opts: &Options) -> bool {
    let set = |c: &Option<std::sync::Arc<std::sync::atomic::AtomicBool>>| {
        c.as_ref()
            .is_some_and(|c| c.load(std::sync::atomic::Ordering::SeqCst))
    };
    set(&opts.cancel) || set(&opts.rival)
}

/// Waits for `child`, killing it (and its process group) at `deadline` or when the run is
/// [`cancelled`] (then reported as not timed out).
fn wait_with_timeout(
    child: &mut Child,
    deadline: Option<Instant>,
    opts: &Options,
) -> io::Result<(ExitStatus, bool)> {
    if deadline.is_none() && opts.cancel.is_none() && opts.rival.is_none() {
        return Ok((child.wait()?, false));
    }
    loop {
        if let Some(status) = child.try_wait()? {
            return Ok((status, false));
        }
        if cancelled(opts) {
            process::kill(&[format!("-{}", child.id())]);
            let _ = child.kill();
            return Ok((child.wait()?, false));
        }
        let now = Instant::now();
        if deadline.is_some_and(|d| now >= d) {
            // The child leads its own process group (process_group(0)): kill the group.
            process::kill(&[format!("-{}", child.id())]);
            let _ = child.kill();
            return Ok((child.wait()?, true));
        }
        let left = deadline.map_or(Duration::MAX, |d| d - now);
        thread::sleep(left.min(Duration::from_millis(10)));
    }
}

#[cfg(test)]
mod tests {

    #[test]
    fn phase_times_are_summed_over_the_solver_calls() {
        let msg = |m: &str| format!("{{\n    \"messageText\": \"{m}\",\n  }},\n");
        let out = [
            msg("Runtime Symex: 0.5s"),
            msg("Runtime Convert SSA: 1.25s"),
            msg("Runtime Solver: 2e-05s"),
            msg("Runtime Solver: 3s"),
            msg("Runtime decision procedure: 9s"),
        ]
        .concat();
        let t = phase_times(&out);
        assert_eq!(t.symex, Some(0.5));
        assert_eq!(t.convert, Some(1.25));
        assert!((t.sat.unwrap() - 3.00002).abs() < 1e-9, "{t:?}");
        assert_eq!(phase_times("[]"), PhaseTimes::default());
    }

    /// CBMC out of memory exits with 6, the status of a program it cannot read: its errors
    /// (recorded from a run on a real project) say which, and the solver says it was there.
    #[test]
    fn out_of_memory_is_named_with_its_phase() {
        let msg = |m: &str, t: &str| {
            format!("  {{\n    \"messageText\": \"{m}\",\n    \"messageType\": \"{t}\"\n  }},\n")
        };
        let symex = format!(
            "[\n{}{}{}",
            msg(
                "CBMC version 6.6.0 (cbmc-6.6.0) 64-bit x86_64 linux",
                "STATUS-MESSAGE"
            ),
            msg("Starting Bounded Model Checking", "STATUS-MESSAGE"),
            msg("Runtime Symex: 75.2064s", "STATISTICS"),
        );
        let sat = format!(
            "{symex}{}{}{}  {{\n    \"messageText\": \"Out of memory\",\n    \"messageType\": \"ERROR\"\n  }}\n]\n",
            msg("Running propositional reduction", "STATUS-MESSAGE"),
            msg("Solving with MiniSAT 2.2.1 with simplifier", "STATUS-MESSAGE"),
            msg("SAT checker ran out of memory", "ERROR"),
        );
        assert_eq!(out_of_memory(&sat, ""), Some(Phase::Solving));
        let (verdict, _) = interpret(Some(6), &sat, "");
        assert_eq!(
            verdict,
            Verdict::Unknown {
                reason: "CBMC ran out of memory in the SAT solver (exit 6)".into()
            }
        );
        // In symbolic execution only "Out of memory"; the phase from the progress so far.
        let during_symex = format!(
            "{symex}  {{\n    \"messageText\": \"Out of memory\",\n    \"messageType\": \"ERROR\"\n  }}\n]\n"
        );
        assert_eq!(
            out_of_memory(&during_symex, ""),
            Some(Phase::SymbolicExecution)
        );
        let (verdict, _) = interpret(Some(6), &during_symex, "");
        assert_eq!(
            verdict,
            Verdict::Unknown {
                reason: "CBMC ran out of memory in its symbolic execution (exit 6)".into()
            }
        );
        // A program CBMC cannot read is still said as such.
        assert_eq!(out_of_memory(SYNTAX_ERROR, ""), None);
        let (verdict, _) = interpret(Some(6), SYNTAX_ERROR, "");
        assert!(
            matches!(&verdict, Verdict::Unknown { reason } if reason.starts_with("CBMC could not read the program (exit 6)")),
            "{verdict:?}"
        );
    }

    #[test]
    fn the_phase_reached_is_read_from_the_progress_messages() {
        let msg = |m: &str| format!("{{\n    \"messageText\": \"{m}\",\n  }},\n");
        let mut out = String::from("[\n");
        let phases = [
            ("Type-checking seq", Phase::FrontEnd),
            ("Starting Bounded Model Checking", Phase::SymbolicExecution),
            ("Passing problem to propositional reduction", Phase::Formula),
            ("Running propositional reduction", Phase::Solving),
        ];
        for (m, phase) in phases {
            out.push_str(&msg(m));
            assert_eq!(phase_reached(&out), phase, "{out}");
        }
    }
    use super::output::*;
    use super::*;

    #[test]
    fn a_deadline_becomes_a_timeout_and_a_share_a_deadline() {
        let o = Options::new(PathBuf::from("cbmc"));
        let past = Instant::now();
        let late = o.until(past, Duration::from_millis(1));
        assert_eq!(late.timeout, Some(Duration::from_millis(1)));
        assert_eq!(late.deadline, Some(past));
        let later = Instant::now() + Duration::from_secs(3600);
        let t = o.until(later, Duration::ZERO).timeout.unwrap();
        assert!(t > Duration::from_secs(3500) && t <= Duration::from_secs(3600));
        let share = o.for_at_most(Duration::from_secs(5));
        assert_eq!(share.timeout, Some(Duration::from_secs(5)));
        assert!(share.deadline.unwrap() > Instant::now());
    }

    const VIOLATED: &str = include_str!("../tests/data/cbmc/violated.json");
    const VERIFIED: &str = include_str!("../tests/data/cbmc/verified.json");
    const SYNTAX_ERROR: &str = include_str!("../tests/data/cbmc/syntax_error.json");

    #[test]
    fn violated_output_gives_property_and_trace() {
        let (verdict, formula) = interpret(Some(10), VIOLATED, "");
        let Verdict::Violated {
            property,
            description,
            trace,
        } = verdict
        else {
            panic!("expected a violation, got {verdict:?}");
        };
        assert_eq!(property, "main.assertion.1");
        assert_eq!(description, "x is three");
        assert!(formula.is_some());
        let visible: Vec<&Step> = trace
            .iter()
            .filter(|s| !s.hidden && !s.is_internal() && s.file.as_deref() == Some("violated.i"))
            .collect();
        let assigns: Vec<(Option<u32>, &str, &str)> = visible
            .iter()
            .filter(|s| s.kind == "assignment")
            .map(|s| {
                (
                    s.line,
                    s.lhs.as_deref().unwrap(),
                    s.value.as_deref().unwrap(),
                )
            })
            .collect();
        assert_eq!(assigns, [(Some(4), "x", "1"), (Some(5), "x", "2")]);
        let last = trace.last().unwrap();
        assert_eq!(last.kind, "failure");
        assert_eq!(last.line, Some(6));
        assert_eq!(last.function.as_deref(), Some("main"));
    }

    /// A CBMC killed mid-output (no exit status, JSON cut off): its last message, not the
    /// raw tail of the JSON.
    #[test]
    fn cut_off_output_names_the_last_message() {
        let stdout = "[\n  {\n    \"messageText\": \"Type-checking seq\",\n  },\n  {\n    \"messageText\": \"a \\\"quoted\\\" pointer\",\n    \"messageType\": \"WARNING\"\n  },\n  {";
        let (verdict, _) = interpret(None, stdout, "");
        let Verdict::Unknown { reason } = verdict else {
            panic!("expected unknown, got {verdict:?}");
        };
        assert_eq!(
            reason,
            "CBMC did not exit normally: its last message: a \\\"quoted\\\" pointer"
        );
    }

    /// CBMC's invariant violation report: the invariant and where, not the backtrace.
    #[test]
    fn invariant_violation_names_the_invariant() {
        let stderr = "--- begin invariant violation report ---\nInvariant check failed\nFile: goto_symex_state.cpp:294 function: rename\nCondition: Type of renamed expr should be the same\nReason: expr.id() != ID_if\nBacktrace:\n/cbmc(+0x2bbc7a) [0x7f]\n--- end invariant violation report ---\n";
        let (verdict, _) = interpret(None, "[ {", stderr);
        let Verdict::Unknown { reason } = verdict else {
            panic!("expected unknown, got {verdict:?}");
        };
        assert_eq!(
            reason,
            "CBMC did not exit normally: an invariant of CBMC failed at goto_symex_state.cpp:294: Type of renamed expr should be the same"
        );
    }

    #[test]
    fn verified_output() {
        let (verdict, formula) = interpret(Some(0), VERIFIED, "");
        assert_eq!(verdict, Verdict::Verified);
        let f = formula.expect("verbosity 8 prints the formula size");
        assert!(f.variables > 0 && f.clauses > 0, "{f:?}");
    }

    #[test]
    fn syntax_error_is_unknown_with_cbmc_message() {
        let (verdict, _) = interpret(Some(6), SYNTAX_ERROR, "");
        let Verdict::Unknown { reason } = verdict else {
            panic!("expected unknown, got {verdict:?}");
        };
        assert!(reason.contains("exit 6"), "{reason}");
        assert!(
            reason.contains("syntax_error.i:2: syntax error before ';'"),
            "{reason}"
        );
    }

    #[test]
    fn unparsable_output_is_unknown() {
        let (verdict, _) = interpret(Some(64), "Usage error!\n", "Unknown option: --bogus\n");
        assert_eq!(
            verdict,
            Verdict::Unknown {
                reason: "CBMC rejected its command line (exit 64): Unknown option: --bogus".into()
            }
        );
        let (verdict, _) = interpret(Some(10), "[ {", "");
        assert!(matches!(verdict, Verdict::Unknown { .. }));
    }

    #[test]
    fn formula_size_message() {
        assert_eq!(
            formula_size("2026 variables, 9349 clauses"),
            Some(FormulaSize {
                variables: 2026,
                clauses: 9349
            })
        );
        assert_eq!(formula_size("Runtime Solver: 1e-05s"), None);
    }

    #[test]
    fn struct_values_are_rendered() {
        let v: serde_json::Value = serde_json::from_str(
            r#"{"members":[{"name":"a","value":{"data":"0","name":"integer"}},
                          {"name":"b","value":{"data":"1","name":"integer"}}],
                "name":"struct"}"#,
        )
        .unwrap();
        assert_eq!(render_value(&v), "{ .a=0, .b=1 }");
        let v: serde_json::Value = serde_json::from_str(r#"{"name":"unknown"}"#).unwrap();
        assert_eq!(render_value(&v), "unknown");
    }

    #[test]
    fn pointer_and_boolean_values_are_c() {
        let v = |s: &str| render_value(&serde_json::from_str(s).unwrap());
        assert_eq!(v(r#"{"data":"x","name":"pointer"}"#), "&x");
        assert_eq!(
            v(r#"{"data":"__ladr_3_a","name":"pointer"}"#),
            "&__ladr_3_a"
        );
        assert_eq!(
            v(r#"{"data":"((signed int *)NULL)","name":"pointer"}"#),
            "NULL"
        );
        assert_eq!(v(r#"{"data":"&a[1l]","name":"pointer"}"#), "&a[1l]");
        assert_eq!(v(r#"{"binary":"1","data":true,"name":"boolean"}"#), "true");
    }

    #[test]
    fn internal_steps() {
        let step = |lhs: &str| Step {
            kind: "assignment".into(),
            file: None,
            line: None,
            column: None,
            function: None,
            callee: None,
            lhs: Some(lhs.into()),
            value: None,
            thread: 0,
            hidden: false,
        };
        assert!(step("SM__&dynamic_object__w.a").is_internal());
        assert!(step("__CPROVER_dead_object").is_internal());
        assert!(!step("x").is_internal());
    }

    #[test]
    fn arguments_follow_design() {
        let mut o = Options::new("cbmc".into());
        o.ilp32 = true;
        o.extra_args = vec!["--unwind".into(), "2".into()];
        let args: Vec<String> = arguments(&o, Path::new("seq.i"))
            .into_iter()
            .map(|a| a.into_string().unwrap())
            .collect();
        assert_eq!(
            args,
            [
                "seq.i",
                "--no-standard-checks",
                "--no-built-in-assertions",
                "--stop-on-fail",
                "--json-ui",
                "--trace",
                "--verbosity",
                "8",
                "--32",
                "--unwind",
                "2"
            ]
        );
    }
}
