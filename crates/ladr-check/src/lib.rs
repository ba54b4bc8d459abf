//! The race check: translate, write the sequential program, run CBMC, read its verdict and
//! name the two racing accesses from the site ids in the counterexample.
//!
//! ```text
//! Parsed ─ translate_seq (pure: passes + printer) ─ run_cbmc (temp dir, CBMC, --keep-files)
//!        ─ read_outcome (pure: verdict, racing sites, cuts, stats) ─ Report
//! ```
//! `check_deepening` repeats this with growing bounds while time is left; `check_races`
//! goes on after the first race, with the pairs found excluded, to report every race.
//!
//! Architecture invariant: this crate knows no output format (no serde, no JSON, no text
//! rendering) and no command line; it reads fixed names only from `ladr_ir::abi`.

use ladr_c::diag::{Error, ErrorKind, Result};
use ladr_c::frontend::source_map::Loc;
use ladr_c::frontend::Parsed;
use ladr_c::origin::Origin;
use ladr_c::print::{print_unit, Printed};
use ladr_cbmc as cbmc;
use ladr_ir::abi::{FIRST_SITE, SECOND_SITE};
use ladr_ir::program::{AccessKey, CutKind, Options, Program, Site, Slot};
use ladr_seq::pipeline::{translate, PassId, Stage};
use std::path::Path;
use std::time::{Duration, Instant};

pub mod files;
pub mod memory;
pub mod parallel;

/// One of the two racing accesses.
#[derive(Clone, Debug)]
pub struct Access {
    pub site: Site,
    pub loc: Loc,
    pub slot: Slot,
    /// Where the slot was created (none for main).
    pub created_at: Option<Loc>,
}

#[derive(Clone, Debug)]
pub enum Verdict {
    /// `first` (the write ending context C1) and `second` (the first access of C2) race.
    Race {
        first: Box<Access>,
        second: Box<Access>,
    },
    NoRace,
    Unknown {
        reason: String,
    },
}

/// The measures of one check (one translation and one CBMC run, with its retries).
#[derive(Clone, Debug, Default)]
pub struct Stats {
    pub translate: Duration,
    pub cbmc: Duration,
    /// The size of CBMC's propositional formula (none when CBMC did not get that far).
    pub variables: Option<u64>,
    pub clauses: Option<u64>,
    pub slots: usize,
    /// Visible statements over all slots.
    pub visible: u32,
    /// Accesses the race pass instrumented ([`Program::instrumented_accesses`]).
    pub instrumented: usize,
}

pub struct Report {
    pub verdict: Verdict,
    pub stats: Stats,
    /// Kinds of bound cuts in the program (a "no race" holds only up to them).
    pub cuts: Vec<CutKind>,
    /// A "no race" that is vacuous: the program creates threads, but no execution within
    /// the bounds creates one ([`vacuity`]).
    pub vacuous: bool,
    pub program: Program,
    pub trace: Vec<cbmc::Step>,
    /// The printer's line map of the sequential program (the origin of each output line).
    pub origins: Vec<Origin>,
    /// Pointer expressions of the sequential program whose targets CBMC's shadow memory
    /// could not bound ([`cbmc::unbounded_pointers`]): accesses through them may not have
    /// been checked, which a "no race" states.
    pub unbounded_pointers: usize,
    /// A "no race" of the constant-loop probe given because the first bound pair of the
    /// deepening gave no answer: why it gave none ([`probe_fallback`]).
    pub fallback: Option<String>,
}

/// The file name of the sequential program given to CBMC (in a temporary directory, or in
/// `--keep-files DIR`); the steps of CBMC's trace in this file are the program's own.
pub const SEQ_FILE: &str = "seq.i";

/// Arrays with at least this many elements make CBMC use `--arrays-uf-always`. Measured on
/// the 44 SV-COMP tasks with an array of 256 or more elements, at 20 s each: with arrays of
/// 10000 (`pthread_t t_ids[10000]`, goblint 28-race_reach) uninterpreted functions reach
/// deeper bounds (4/4 where flattening reaches 3/2, a twentieth of the clauses); with arrays
/// of 400–2048 flattening does better (pthread queue_longest and queue_ok_longest are
/// answered only flattened, the 2048-element driver tasks get 20–37% fewer clauses), and
/// no task of the 44 answers worse.
pub const LARGE_ARRAY: u64 = 4096;

/// The sequential program of a check, printed, with how long translation took.
pub struct Translated {
    pub program: Program,
    pub printed: Printed,
    pub time: Duration,
}

/// Translates `parsed` into the sequential program and prints it (pure: no files).
pub fn translate_seq(parsed: &Parsed, opts: &Options) -> Result<Translated> {
    let t0 = Instant::now();
    let program = translate(parsed.unit.clone(), opts, Stage::Seq, |_, _| {})?;
    let printed = print_unit(&program.unit);
    Ok(Translated {
        program,
        printed,
        time: t0.elapsed(),
    })
}

/// Checks the race check `t` with CBMC ([`run_cbmc_process`]), but not when it instruments
/// no access: then no execution can set the race flag, the only property CBMC checks, and
/// CBMC's answer could only be "verified" (after minutes of symbolic execution on some
/// programs whose accesses `racefree` proves all race-free: 47 SV-COMP tasks, 231 s of
/// their 20 s budgets). That answer is given at once, with no formula; `keep` keeps the
/// program (and no CBMC output).
pub fn run_cbmc(
    t: &Translated,
    cbmc_opts: &cbmc::Options,
    keep: Option<&Path>,
) -> Result<cbmc::Outcome> {
    if t.program.instrumented_accesses() > 0 {
        return run_cbmc_process(t, cbmc_opts, keep);
    }
    let outcome = cbmc::Outcome {
        verdict: cbmc::Verdict::Verified,
        exit_code: Some(0),
        wall: Duration::ZERO,
        timed_out: false,
        formula: None,
        stdout: String::new(),
        stderr: NOTHING_TO_CHECK.into(),
    };
    if let Some(k) = keep {
        keep_files(k, &t.printed.text, &outcome)?;
    }
    Ok(outcome)
}

/// What `--keep-files` writes as CBMC's error output when CBMC did not run ([`run_cbmc`]).
pub const NOTHING_TO_CHECK: &str =
    "CBMC was not run: the program instruments no access (every shared access is race-free)\n";

/// Writes the sequential program to a temporary directory as [`SEQ_FILE`] and runs CBMC on
/// it (with `ladr_cbmc`'s retry policy); `keep` also keeps the program and CBMC's output.
pub fn run_cbmc_process(
    t: &Translated,
    cbmc_opts: &cbmc::Options,
    keep: Option<&Path>,
) -> Result<cbmc::Outcome> {
    let dir = tempfile::Builder::new()
        .prefix("ladr-")
        .tempdir()
        .map_err(|e| {
            Error::new(
                ErrorKind::Backend,
                format!("cannot create a temporary directory: {e}"),
            )
        })?;
    // Removed if ladr is interrupted (the TempDir removes it otherwise).
    let _tracked = cbmc::process::track_path(dir.path().to_path_buf());
    let seq = dir.path().join(SEQ_FILE);
    std::fs::write(&seq, &t.printed.text).map_err(|e| {
        Error::new(
            ErrorKind::Backend,
            format!("cannot write {}: {e}", seq.display()),
        )
    })?;
    // Large arrays (`pthread_t ids[10000]`): uninterpreted functions keep the formula small.
    let uf = ladr_ir::analysis::largest_array(&t.program.unit) >= LARGE_ARRAY;
    let mut cbmc_opts = cbmc_opts.clone();
    cbmc_opts.temp_dir = Some(dir.path().to_path_buf());
    let outcome = cbmc::run_with_retries(&cbmc_opts, &seq, uf)
        .map_err(|e| Error::new(ErrorKind::Backend, e.to_string()))?;
    if let Some(k) = keep {
        keep_files(k, &t.printed.text, &outcome)?;
    }
    Ok(outcome)
}

/// Checks that `--keep-files DIR` can be used: creates it and writes a probe file there, so
/// a bad place is a usage error before the check rather than files silently not kept.
pub fn prepare_keep_dir(dir: &Path) -> Result<()> {
    let bad = |e: std::io::Error| {
        Error::new(
            ErrorKind::Usage,
            format!("--keep-files: cannot write into `{}`: {e}", dir.display()),
        )
    };
    std::fs::create_dir_all(dir).map_err(bad)?;
    files::probe_dir(dir).map_err(bad)
}

/// Writes the sequential program and CBMC's output into `dir` (`--keep-files`).
fn keep_files(dir: &Path, seq: &str, outcome: &cbmc::Outcome) -> Result<()> {
    let write = |name: &str, text: &str| {
        files::write_no_follow(&dir.join(name), text.as_bytes()).map_err(|e| {
            Error::new(
                ErrorKind::Usage,
                format!(
                    "--keep-files: cannot write {}: {e}",
                    dir.join(name).display()
                ),
            )
        })
    };
    std::fs::create_dir_all(dir).map_err(|e| {
        Error::new(
            ErrorKind::Usage,
            format!("--keep-files: cannot create `{}`: {e}", dir.display()),
        )
    })?;
    write(SEQ_FILE, seq)?;
    write("cbmc.json", &outcome.stdout)?;
    write("cbmc.stderr", &outcome.stderr)
}

/// Translates `parsed` and checks it with CBMC.
pub fn check(
    parsed: &Parsed,
    opts: &Options,
    cbmc_opts: &cbmc::Options,
    keep: Option<&Path>,
) -> Result<Report> {
    let t = translate_seq(parsed, opts)?;
    let outcome = run_cbmc(&t, cbmc_opts, keep)?;
    Ok(read_outcome(parsed, t, outcome))
}

/// The report of a check from CBMC's outcome on the translated program: the verdict, and for
/// a race the two accesses named by the site ids the counterexample sets. Pure, so trace
/// mapping is tested on recorded CBMC output.
pub fn read_outcome(parsed: &Parsed, t: Translated, outcome: cbmc::Outcome) -> Report {
    let program = t.program;
    let stats = Stats {
        translate: t.time,
        cbmc: outcome.wall,
        variables: outcome.formula.map(|f| f.variables),
        clauses: outcome.formula.map(|f| f.clauses),
        slots: program.slots.len(),
        visible: program.visible_statements(),
        instrumented: program.instrumented_accesses(),
    };
    let mut trace = vec![];
    let unbounded_pointers = cbmc::unbounded_pointers(&outcome.stdout);
    let verdict = match outcome.verdict {
        cbmc::Verdict::Verified => Verdict::NoRace,
        cbmc::Verdict::Unknown { reason } => Verdict::Unknown {
            reason: if outcome.timed_out {
                "CBMC ran out of time".into()
            } else {
                reason
            },
        },
        cbmc::Verdict::Violated { trace: steps, .. } => {
            let w = last_value(&steps, FIRST_SITE);
            let r = last_value(&steps, SECOND_SITE);
            trace = steps;
            match (w, r) {
                (Some(w), Some(r)) => {
                    let access = |id: u32| -> Option<Box<Access>> {
                        // Site 0 is no access: the flag was not set by an instrumented write.
                        if id == 0 {
                            return None;
                        }
                        let site = program.sites.get(id as usize)?.clone();
                        let slot = program.slots.get(site.slot)?.clone();
                        Some(Box::new(Access {
                            loc: parsed.map.lookup(site.span.start),
                            created_at: slot.created_at.map(|s| parsed.map.lookup(s.start)),
                            site,
                            slot,
                        }))
                    };
                    match (access(w), access(r)) {
                        (Some(first), Some(second)) => Verdict::Race { first, second },
                        // Only an inconsistency of the encoding (or of CBMC's shadow memory)
                        // gets here: every flag set records its site.
                        _ => Verdict::Unknown {
                            reason: format!(
                                "internal error: CBMC's counterexample reports a race between \
                                 access sites {} and {}",
                                describe_site(parsed, &program, w),
                                describe_site(parsed, &program, r)
                            ),
                        },
                    }
                }
                _ => Verdict::Unknown {
                    reason: format!(
                        "internal error: CBMC's counterexample reports a race but does not \
                         assign {}",
                        if w.is_none() { FIRST_SITE } else { SECOND_SITE }
                    ),
                },
            }
        }
    };
    let mut cuts: Vec<CutKind> = program.cuts.iter().map(|c| c.kind).collect();
    cuts.sort_by_key(|c| *c as u8);
    cuts.dedup();
    Report {
        verdict,
        stats,
        cuts,
        vacuous: false,
        program,
        trace,
        origins: t.printed.origins,
        unbounded_pointers,
        fallback: None,
    }
}

/// A site id of CBMC's counterexample, for the internal error of a race between accesses
/// that are not both known: what the site is, or why it is none.
fn describe_site(parsed: &Parsed, program: &Program, id: u32) -> String {
    if id == 0 {
        return "0 (no site: no instrumented access of the first context set the flag \
                the other access found)"
            .into();
    }
    match program.sites.get(id as usize) {
        Some(s) => format!(
            "{id} (the {} of `{}` at {}, thread {})",
            if s.write { "write" } else { "read" },
            s.expr,
            parsed.map.lookup(s.span.start),
            s.slot
        ),
        None => format!(
            "{id} (no such site: the sequential program has sites 1 to {})",
            program.sites.len().saturating_sub(1)
        ),
    }
}

/// The last value CBMC assigned to global `name` in the trace.
fn last_value(trace: &[cbmc::Step], name: &str) -> Option<u32> {
    trace
        .iter()
        .rev()
        .filter(|s| s.kind == "assignment" && s.lhs.as_deref() == Some(name))
        .find_map(|s| s.unsigned_value().and_then(|v| u32::try_from(v).ok()))
}

/// The bounds of deepening step `step` (0 = `start`). From (2,2): (3,2), (3,3), (3,4),
/// (4,2), (4,4), then rounds and unwinding grow in turn (5,4), (5,5), … Three rounds come
/// first (races that need a thread preempted before its access and resumed later: the
/// races found on real thread pools needed three), then more unwinding at three rounds
/// (threads created, joined or handed work in loops of four), then four rounds (two
/// handshakes before the racing access). A race of SV-COMP's dev set at 3/4
/// (thread-join-binomial-race-2) was found after 18 s with 4/2 before 3/3, 14 s now.
pub fn deepening_bounds(start: &Options, step: u32) -> Options {
    const SCHEDULE: [(u32, u32); 6] = [(0, 0), (1, 0), (1, 1), (1, 2), (2, 0), (2, 2)];
    let mut b = start.clone();
    let last = SCHEDULE.len() as u32 - 1;
    let (r, u) = SCHEDULE[step.min(last) as usize];
    b.rounds += r;
    b.unwind += u;
    for _ in last..step {
        if b.rounds <= b.unwind {
            b.rounds += 1;
        } else {
            b.unwind += 1;
        }
    }
    b
}

/// The share of the time left that the constant-loop probe ([`probe`]) may take.
pub const PROBE_SHARE: u32 = 4;

/// The constant-loop probe runs only when the first bound pair's program has at least this
/// many times the probe's visible statements: cutting loops that add less saves too little
/// CBMC time to pay for the probe's (workstealqueue_mutex-1: 603 against 543 visible
/// statements, whose race at 2/2 took 14 s, was not answered in 20 s with a probe before).
pub const PROBE_RATIO: u32 = 2;

/// The bounds of the constant-loop probe of a deepening from `opts`: the same rounds and
/// unwinding, with loops of a constant bound cut after `unwind` iterations like any other
/// loop (`max_unwind = unwind`) instead of unwound completely. `None` when that is `opts`.
pub fn probe_bounds(opts: &Options) -> Option<Options> {
    (opts.max_unwind > opts.unwind).then(|| Options {
        max_unwind: opts.unwind,
        ..opts.clone()
    })
}

/// Does a deepening from `opts` of `steps` steps start with the constant-loop probe
/// ([`probe`])? Only with a time limit (nothing would stop a slow probe) and when cutting
/// constant loops changes the bounds.
pub fn probes(opts: &Options, steps: u32, deadline: Option<Instant>) -> bool {
    steps > 0 && deadline.is_some() && probe_bounds(opts).is_some()
}

/// Are `bounds` the probe's of a deepening from `opts` ([`probe_bounds`])? Only the probe
/// lowers `max_unwind`.
pub fn is_probe(opts: &Options, bounds: &Options) -> bool {
    bounds.max_unwind < opts.max_unwind
}

/// The constant-loop probe: a deepening first checks its start bounds with constant loops
/// cut ([`probe_bounds`]), when that makes the program much smaller ([`PROBE_RATIO`]). A
/// race there is a race of the program (a cut only removes executions, as every bound
/// does), reported at the probe's bounds (its answer lists the `loop` cut); "no race" or
/// no answer there says nothing, and the deepening goes on from its start bounds.
///
/// Why: a loop of 7 pushes unwound completely in two threads made a formula of 7 million
/// clauses (divinefifo_1w1r: CBMC 62 s), whose race lies in the first iteration; cut after
/// 2 iterations it is found in 4.6 s. The probe's CBMC gets at most 1/[`PROBE_SHARE`] of
/// the time left, so a race-free program loses at most that much of its time limit (and
/// only programs it halves pay anything but the translation of its own program).
///
/// `full` is the program of `opts` itself (the first bound pair's, which the caller then
/// checks: it is translated once). Returns the probe's report and bounds; `None` when
/// there is no probe or no time limit (nothing would stop a slow probe). Only a race is an
/// answer. `keep` keeps its files.
#[allow(clippy::too_many_arguments)]
pub fn probe(
    parsed: &Parsed,
    opts: &Options,
    full: &Program,
    cbmc_opts: &cbmc::Options,
    keep: Option<&Path>,
    deadline: Option<Instant>,
    progress: &mut dyn FnMut(Phase, &Options),
) -> Option<(Report, Options)> {
    let deadline = deadline?;
    let bounds = probe_bounds(opts)?;
    progress(Phase::Translating, &bounds);
    let t = translate_seq(parsed, &bounds).ok()?;
    if t.program.visible_statements() * PROBE_RATIO > full.visible_statements() {
        return None;
    }
    let left = deadline.saturating_duration_since(Instant::now());
    let share = left / PROBE_SHARE;
    if share.is_zero() {
        return None;
    }
    let c = cbmc_opts.for_at_most(share);
    progress(Phase::Cbmc, &bounds);
    let outcome = run_cbmc(&t, &c, keep).ok()?;
    Some((read_outcome(parsed, t, outcome), bounds))
}

/// The constant-loop probe's "no race" (`report` at the probe's `bounds`), kept as the
/// answer of last resort: when the first bound pair of the deepening gives no answer (its
/// constant loops unwound completely are too much for CBMC within the time limit), the
/// answer is this "no race", whose bounds cut those loops after `unwind` iterations (listed
/// as `loop` cuts), instead of "unknown" — what a bounded check can say of a large program
/// (64 threads running loops of 100 iterations). SV-COMP mode does not take it (a race may
/// need more iterations of a constant loop). It is checked for vacuity at once ([`vacuity`],
/// with at most 1/[`PROBE_SHARE`] of the time left, as the probe): a vacuous or unanswered
/// one is not kept (`None`). Returns it and the time its vacuity query took.
pub fn probe_fallback(
    parsed: &Parsed,
    mut report: Report,
    bounds: Options,
    cbmc_opts: &cbmc::Options,
    deadline: Option<Instant>,
) -> (Option<(Report, Options)>, Duration) {
    let Some(deadline) = deadline else {
        return (None, Duration::ZERO);
    };
    let share = deadline.saturating_duration_since(Instant::now()) / PROBE_SHARE;
    if !matches!(report.verdict, Verdict::NoRace) || share.is_zero() {
        return (None, Duration::ZERO);
    }
    let c = cbmc_opts.for_at_most(share);
    let t0 = Instant::now();
    let vacuous = vacuity(parsed, &bounds, &c);
    let time = t0.elapsed();
    // The answer's times are those of all runs, which the caller adds.
    report.stats.translate = Duration::ZERO;
    report.stats.cbmc = Duration::ZERO;
    ((vacuous == Some(false)).then_some((report, bounds)), time)
}

/// The answer of a deepening whose first bound pair gave no answer (`unknown`): the probe's
/// "no race" ([`probe_fallback`]) when there is one, marked with the reason
/// (`Report::fallback`, which tells the caller it fell back); else `unknown`.
pub fn fall_back(
    unknown: (Report, Options),
    fallback: Option<(Report, Options)>,
) -> (Report, Options) {
    match (&unknown.0.verdict, fallback) {
        (Verdict::Unknown { reason }, Some((mut r, b))) => {
            r.fallback = Some(reason.clone());
            r.stats.translate += unknown.0.stats.translate;
            r.stats.cbmc += unknown.0.stats.cbmc;
            // The first pair's program: gigabytes of syntax trees on large programs.
            drop_in_background(unknown.0.program);
            (r, b)
        }
        _ => unknown,
    }
}

/// The stack of a thread that translates, prints or checks a program: deeply nested
/// programs (a 10 000-term expression, thousands of unwound statements) recurse deeply in
/// the passes and the printer.
pub const STACK: usize = 256 << 20;

/// Frees `x` on a thread of its own, so that an answer does not wait for it: the programs
/// and reports of a check are gigabytes of syntax trees on large programs, and freeing them
/// took longer than the watchdog of `ladr FILE` allows after the time limit (spmc.c and
/// channel.c of sysprog21/concurrent-programs at `--timeout 60`: "the time limit was
/// reached" instead of, or after, the answer). With no thread to be had, `spawn` frees it
/// here.
pub fn drop_in_background<T: Send + 'static>(x: T) {
    let _ = std::thread::Builder::new()
        .name("free".into())
        .spawn(move || drop(x));
}

/// Deepening goes on while a "no race" is vacuous, with a time limit, up to this many
/// steps (past `--deepen-steps`).
pub const MAX_DEEPENING_STEPS: u32 = 100;

/// Is a "no race" at `bounds` vacuous? The vacuity criterion: the program creates threads
/// (after inlining, `main` or a start routine calls `pthread_create`), but no execution
/// within the bounds creates one (a loop before the first `pthread_create` that the
/// unwinding cuts, say), so no access of a thread was checked. An execution that never
/// reaches the end of `main` (`while (1)` in `main`) is no vacuity once it created a
/// thread: every prefix of an execution up to the bounds is checked. A program that
/// creates no thread is not vacuous (it has no race at any bounds). Rounds do not matter:
/// no thread runs before `main` creates the first one.
///
/// Translates the vacuity query (`Options::vacuity_query`: no race flags, one context of
/// `main`, a much smaller formula than the race check's) and runs CBMC: `Some(true)` when
/// no thread is created (also when the bounds cut every `pthread_create`, so no thread
/// slot is left), `Some(false)` when one is, `None` when CBMC gave no answer (time limit,
/// failure).
pub fn vacuity(parsed: &Parsed, bounds: &Options, cbmc_opts: &cbmc::Options) -> Option<bool> {
    let query = Options {
        vacuity_query: true,
        rounds: 1,
        exclude: vec![],
        ..bounds.clone()
    };
    let mut creates = false;
    let t0 = Instant::now();
    let program = translate(parsed.unit.clone(), &query, Stage::Seq, |pass, p| {
        if pass == PassId::Inline {
            creates = p.unit.0.iter().any(|ext| match &ext.node {
                lang_c::ast::ExternalDeclaration::FunctionDefinition(f) => {
                    ladr_c::syntax::walk::mentions(&f.node.statement, &["pthread_create"])
                }
                _ => false,
            });
        }
    })
    .ok()?;
    if !creates {
        return Some(false);
    }
    if program.slots.len() <= 1 {
        return Some(true);
    }
    let printed = print_unit(&program.unit);
    let t = Translated {
        program,
        printed,
        time: t0.elapsed(),
    };
    let outcome = run_cbmc_process(&t, cbmc_opts, None).ok()?;
    match outcome.verdict {
        cbmc::Verdict::Verified => Some(true),
        cbmc::Verdict::Violated { .. } => Some(false),
        cbmc::Verdict::Unknown { .. } => None,
    }
}

/// Sets `report.vacuous` for a "no race" at `bounds` ([`vacuity`]; an unanswered query
/// leaves it false), with CBMC stopped at `deadline`.
pub fn mark_vacuity(
    parsed: &Parsed,
    report: &mut Report,
    bounds: &Options,
    cbmc_opts: &cbmc::Options,
    deadline: Option<Instant>,
) {
    if !matches!(report.verdict, Verdict::NoRace) {
        return;
    }
    let mut c = cbmc_opts.clone();
    if let Some(d) = deadline {
        if d <= Instant::now() {
            return;
        }
        c = cbmc_opts.until(d, Duration::ZERO);
    }
    let t0 = Instant::now();
    report.vacuous = vacuity(parsed, bounds, &c) == Some(true);
    report.stats.cbmc += t0.elapsed();
}

/// Checks with `opts`, and while the answer is "no race" and time is left before
/// `deadline`, again with larger bounds ([`deepening_bounds`]), at most `steps` more times. The
/// result is the first race found, or the answer of the deepest check that finished (a
/// deeper check that runs out of time does not turn a finished "no race" into "unknown").
/// A "no race" that would end the deepening (after `steps`, or the first without a time
/// limit) is checked for vacuity ([`mark_vacuity`]); while it is vacuous the bounds grow
/// on: up to `steps` without a time limit, up to [`MAX_DEEPENING_STEPS`] with one (none
/// when `steps` is 0: no deepening).
/// Returns the report and the bounds it holds for.
pub fn check_deepening(
    parsed: &Parsed,
    opts: &Options,
    cbmc_opts: &cbmc::Options,
    keep: Option<&Path>,
    deadline: Option<Instant>,
    steps: u32,
) -> Result<(Report, Options)> {
    check_deepening_with(
        parsed,
        opts,
        cbmc_opts,
        keep,
        deadline,
        steps,
        &mut |_, _| {},
    )
}

/// What a check is doing, for a progress display.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Phase {
    /// Running the passes and the printer.
    Translating,
    /// CBMC is checking the sequential program.
    Cbmc,
}

/// [`check_deepening`], telling `progress` each phase with the bounds it works at.
pub fn check_deepening_with(
    parsed: &Parsed,
    opts: &Options,
    cbmc_opts: &cbmc::Options,
    keep: Option<&Path>,
    deadline: Option<Instant>,
    steps: u32,
    progress: &mut dyn FnMut(Phase, &Options),
) -> Result<(Report, Options)> {
    check_deepening_from(parsed, opts, 0, cbmc_opts, keep, deadline, steps, progress)
}

/// [`check_deepening_with`] from deepening step `first` (0: `opts`).
#[allow(clippy::too_many_arguments)]
pub fn check_deepening_from(
    parsed: &Parsed,
    opts: &Options,
    first: u32,
    cbmc_opts: &cbmc::Options,
    keep: Option<&Path>,
    deadline: Option<Instant>,
    steps: u32,
    progress: &mut dyn FnMut(Phase, &Options),
) -> Result<(Report, Options)> {
    // The times of every run but `best`'s (the answer's stats are those of all runs).
    let mut spent = (Duration::ZERO, Duration::ZERO);
    let add = |spent: &mut (Duration, Duration), r: &Report| {
        spent.0 += r.stats.translate;
        spent.1 += r.stats.cbmc;
    };
    let with_spent = |mut r: Report, spent: (Duration, Duration)| {
        r.stats.translate += spent.0;
        r.stats.cbmc += spent.1;
        r
    };
    // The first bound pair's program, when the probe needed it first.
    let mut translated: Option<Translated> = None;
    // The probe's "no race", the answer when the first pair gives none.
    let mut fallback = None;
    if first == 0 && probes(opts, steps, deadline) {
        progress(Phase::Translating, opts);
        let t = translate_seq(parsed, opts)?;
        let probed = probe(
            parsed, opts, &t.program, cbmc_opts, keep, deadline, progress,
        );
        if let Some((report, at)) = probed {
            if matches!(report.verdict, Verdict::Race { .. }) {
                // The first pair's translation, done for the probe's size test, is part
                // of what the answer cost.
                spent.0 += t.time;
                return Ok((with_spent(report, spent), at));
            }
            add(&mut spent, &report);
            let (kept, time) = probe_fallback(parsed, report, at, cbmc_opts, deadline);
            spent.1 += time;
            fallback = kept;
        }
        translated = Some(t);
    }
    let mut bounds = deepening_bounds(opts, first);
    let mut best: Option<(Report, Options)> = None;
    // Whether `best` was checked for vacuity.
    let mut asked = false;
    // Without deepening (`steps` 0), the bounds given are the only ones.
    let last = if deadline.is_some() && steps > 0 {
        steps.max(MAX_DEEPENING_STEPS)
    } else {
        steps
    };
    for step in first..=last {
        let mut c = cbmc_opts.clone();
        if let Some(d) = deadline {
            if d <= Instant::now() && best.is_some() {
                break;
            }
            // The first check always runs (and times out at once if nothing is left); CBMC
            // is stopped at the deadline, however long translation took.
            c = cbmc_opts.until(d, Duration::from_millis(1));
        }
        let checked = (|| {
            let t = match translated.take() {
                Some(t) => t,
                None => {
                    progress(Phase::Translating, &bounds);
                    translate_seq(parsed, &bounds)?
                }
            };
            progress(Phase::Cbmc, &bounds);
            let outcome = run_cbmc(&t, &c, keep)?;
            Ok(read_outcome(parsed, t, outcome))
        })();
        let report = match checked {
            Ok(r) => r,
            // A deeper program can hit a limit the first one did not (more slots than
            // the model has rows): keep the answer already found.
            Err(_) if best.is_some() => break,
            Err(e) => return Err(e),
        };
        match report.verdict {
            Verdict::Race { .. } => {
                if let Some((b, _)) = &best {
                    add(&mut spent, b);
                }
                return Ok((with_spent(report, spent), bounds));
            }
            Verdict::NoRace => {
                if let Some((b, _)) = &best {
                    add(&mut spent, b);
                }
                best = Some((report, bounds.clone()));
                asked = false;
            }
            Verdict::Unknown { .. } if best.is_none() => best = Some((report, bounds.clone())),
            Verdict::Unknown { .. } => {
                add(&mut spent, &report);
                break;
            }
        }
        if step >= steps || deadline.is_none() {
            // The deepening would end here: not on a vacuous "no race".
            let Some((r, b)) = best.as_mut() else { break };
            mark_vacuity(parsed, r, b, cbmc_opts, deadline);
            asked = true;
            if !r.vacuous || step >= last {
                break;
            }
        }
        bounds = deepening_bounds(opts, step + 1);
    }
    let best = best.expect("the first check always gives an answer or an error");
    let (report, bounds) = fall_back(best, fallback);
    // The probe's "no race" was checked for vacuity.
    asked |= report.fallback.is_some();
    let mut report = with_spent(report, spent);
    if !asked {
        mark_vacuity(parsed, &mut report, &bounds, cbmc_opts, deadline);
    }
    Ok((report, bounds))
}

/// How the search for more races after the first ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SearchEnd {
    /// The last check found no further race within the bounds: every race within them has
    /// been reported (none, when the first check found none).
    AllFound,
    /// As many races as asked for were found (`--max-races`).
    MaxRaces,
    /// A check gave no answer (time limit, CBMC failure): more races may exist.
    Stopped { reason: String },
}

/// The races of a check ([`check_races`]).
pub struct Races {
    /// The reports of the races found, in the order found, each with its own counterexample;
    /// when none was found, the one report of the check (no race, or unknown).
    pub reports: Vec<Report>,
    /// The bounds all of them hold for.
    pub bounds: Options,
    pub end: SearchEnd,
    /// Time spent translating and in CBMC, over all checks (also those that found nothing).
    pub translate: Duration,
    pub cbmc: Duration,
}

impl Races {
    /// The reports that found a race.
    pub fn races(&self) -> impl Iterator<Item = &Report> {
        self.reports
            .iter()
            .filter(|r| matches!(r.verdict, Verdict::Race { .. }))
    }
}

/// The pair of accesses of a race, as `Options::exclude` names it.
pub fn race_pair(v: &Verdict) -> Option<[AccessKey; 2]> {
    match v {
        Verdict::Race { first, second } => Some([first.site.span.into(), second.site.span.into()]),
        _ => None,
    }
}

/// [`check_deepening_with`], then, after a race and while fewer than `max_races` (`None`: no
/// limit) were found and time is left before `deadline`, again at the bounds of that race
/// with every pair found so far excluded (`Options::exclude`), until a check finds no race
/// or gives no answer. Each pair of access sites is reported once, with its own
/// interleaving. `keep` applies to the first race's check only.
#[allow(clippy::too_many_arguments)]
pub fn check_races(
    parsed: &Parsed,
    opts: &Options,
    cbmc_opts: &cbmc::Options,
    keep: Option<&Path>,
    deadline: Option<Instant>,
    steps: u32,
    max_races: Option<usize>,
    progress: &mut dyn FnMut(Phase, &Options),
) -> Result<Races> {
    let (first, bounds) =
        check_deepening_with(parsed, opts, cbmc_opts, keep, deadline, steps, progress)?;
    Ok(more_races(
        parsed, first, bounds, cbmc_opts, deadline, max_races, progress,
    ))
}

/// The rest of [`check_races`] after its first check: `first` (its report, at `bounds`),
/// then, after a race and while fewer than `max_races` were found and time is left, again
/// with every pair found so far excluded. Also used after the parallel deepening of
/// [`parallel`].
pub fn more_races(
    parsed: &Parsed,
    first: Report,
    mut bounds: Options,
    cbmc_opts: &cbmc::Options,
    deadline: Option<Instant>,
    max_races: Option<usize>,
    progress: &mut dyn FnMut(Phase, &Options),
) -> Races {
    let mut translate = first.stats.translate;
    let mut cbmc_time = first.stats.cbmc;
    let mut reports = vec![];
    let mut end = SearchEnd::AllFound;
    let mut pair = race_pair(&first.verdict);
    if let Verdict::Unknown { reason } = &first.verdict {
        end = SearchEnd::Stopped {
            reason: reason.clone(),
        };
    }
    reports.push(first);
    while let Some(found) = pair.take() {
        if max_races.is_some_and(|m| reports.len() >= m) {
            end = SearchEnd::MaxRaces;
            break;
        }
        let mut c = cbmc_opts.clone();
        if let Some(d) = deadline {
            if d <= Instant::now() {
                end = SearchEnd::Stopped {
                    reason: "the time limit was reached".into(),
                };
                break;
            }
            c = cbmc_opts.until(d, Duration::ZERO);
        }
        bounds.exclude.push(found);
        let checked = (|| {
            progress(Phase::Translating, &bounds);
            let t = translate_seq(parsed, &bounds)?;
            progress(Phase::Cbmc, &bounds);
            let outcome = run_cbmc(&t, &c, None)?;
            Ok::<_, Error>(read_outcome(parsed, t, outcome))
        })();
        let report = match checked {
            Ok(r) => r,
            Err(e) => {
                end = SearchEnd::Stopped { reason: e.message };
                break;
            }
        };
        translate += report.stats.translate;
        cbmc_time += report.stats.cbmc;
        match &report.verdict {
            Verdict::NoRace => end = SearchEnd::AllFound,
            Verdict::Unknown { reason } => {
                end = SearchEnd::Stopped {
                    reason: reason.clone(),
                }
            }
            Verdict::Race { .. } => {
                let p = race_pair(&report.verdict);
                // An excluded pair again would search forever: the exclusion failed.
                if p.is_some_and(|p| excluded(&bounds.exclude, p)) {
                    end = SearchEnd::Stopped {
                        reason: "internal error: an excluded pair of accesses was found again"
                            .into(),
                    };
                    break;
                }
                pair = p;
                reports.push(report);
            }
        }
    }
    bounds.exclude.clear();
    Races {
        reports,
        bounds,
        end,
        translate,
        cbmc: cbmc_time,
    }
}

/// Is the (unordered) pair `p` among `pairs`?
fn excluded(pairs: &[[AccessKey; 2]], [a, b]: [AccessKey; 2]) -> bool {
    pairs
        .iter()
        .any(|&[x, y]| (x, y) == (a, b) || (x, y) == (b, a))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn deepening_tries_three_rounds_with_more_unwinding_before_four_rounds() {
        let start = Options {
            rounds: 2,
            unwind: 2,
            ..Options::default()
        };
        let seq: Vec<(u32, u32)> = (0..9)
            .map(|k| {
                let b = deepening_bounds(&start, k);
                (b.rounds, b.unwind)
            })
            .collect();
        assert_eq!(
            seq,
            [
                (2, 2),
                (3, 2),
                (3, 3),
                (3, 4),
                (4, 2),
                (4, 4),
                (5, 4),
                (5, 5),
                (6, 5)
            ]
        );
    }
}
