//! One check: translate the program at one pair of bounds, print it, run CBMC on it, and
//! read CBMC's verdict: the two racing accesses named by the site ids the counterexample
//! sets ([`read_outcome`], pure, so trace mapping is tested on recorded CBMC output).
//!
//! ```text
//! Parsed ─ translate_seq (pure: passes + printer) ─ run_cbmc (temp dir, CBMC, --keep-files)
//!        ─ read_outcome (pure: verdict, racing sites, cuts, stats) ─ Report
//! ```

use cbmc::files;
use ladr_c::diag::{Error, ErrorKind, Result};
use ladr_c::frontend::Parsed;
use ladr_c::origin::Origin;
use ladr_c::print::{print_unit, Printed};
use ladr_c::source_map::Loc;
use ladr_cbmc as cbmc;
use ladr_ir::abi::{FIRST_SITE, SECOND_SITE};
use ladr_ir::program::{CutKind, Options, Program, Site, Slot};
use ladr_seq::pipeline::{translate, Stage};
use std::path::Path;
use std::time::{Duration, Instant};

/// One of the two racing accesses.
#[derive(Clone, Debug)]
pub struct Access {
    pub site: Site,
    pub loc: Loc,
    pub slot: Slot,
}

#[derive(Clone, Debug)]
pub enum Finding {
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
    /// CBMC's own times of its phases (symbolic execution, formula, SAT).
    pub phases: cbmc::PhaseTimes,
}

pub struct Report {
    pub verdict: Finding,
    pub stats: Stats,
    /// Kinds of bound cuts in the program (a "no race" holds only up to them).
    pub cuts: Vec<CutKind>,
    /// A "no race" that is vacuous: the program creates threads, but no execution within
    /// the bounds creates one ([`vacuity`]).
    pub vacuous: bool,
    /// A "no race" whose vacuity query gave no answer in time ([`crate::mark_vacuity`]):
    /// whether any execution within the bounds creates a thread is not known.
    pub vacuity_unanswered: bool,
    pub program: Program,
    pub trace: Vec<cbmc::Step>,
    /// The printer's line map of the sequential program (the origin of each output line).
    pub origins: Vec<Origin>,
    /// A "no race" of the constant-loop probe given because the first bound pair of the
    /// deepening gave no answer: why it gave none ([`probe_fallback`]).
    pub fallback: Option<String>,
}

pub use cbmc::SEQ_FILE;

/// Arrays with at least this many elements make CBMC use `--arrays-uf-always`. Measured on
/// the 44 SV-COMP tasks with an array of 256 or more elements, at 20 s each: with arrays of
/// 10000 (`pthread_t t_ids[10000]`, goblint 28-race_reach) uninterpreted functions reach
/// deeper bounds (4/4 where flattening reaches 3/2, a twentieth of the clauses); with arrays
/// of 400–2048 flattening does better (pthread queue_longest and queue_ok_longest are
/// answered only flattened, the 2048-element driver tasks get 20–37% fewer clauses), and
/// no task of the 44 answers worse.
pub const LARGE_ARRAY: u64 = 4096;

/// Arrays of several dimensions with at least this many elements together make CBMC use
/// `--arrays-uf-always` too. Flattened, DataRaceBench's `double b[1000][1000]` cost CBMC
/// 20 s printing its zero initialisation as one 148 MB counterexample step and ladr 10 s
/// reading it (DRB037: unknown at 60 s; with uninterpreted functions the race in 15 s,
/// DRB031 16 s instead of 55 s). Only arrays this large change: arrays of 100×100 and
/// 200×200 stay flattened (docs/openmp.md, "Arrays of a million elements").
pub const LARGE_ARRAY_ELEMENTS: u64 = 1_000_000;

/// Does CBMC check `program` with uninterpreted functions for arrays? When it has an array
/// with a dimension of [`LARGE_ARRAY`] elements or more (`pthread_t ids[10000]`), or one of
/// [`LARGE_ARRAY_ELEMENTS`] elements or more: they keep the formula small.
pub fn wants_arrays_uf(program: &Program) -> bool {
    let (dimension, elements) = ladr_ir::analysis::largest_array(&program.unit);
    dimension >= LARGE_ARRAY || elements >= LARGE_ARRAY_ELEMENTS
}

/// The sequential program of a check, printed, with how long translation took.
pub struct Translated {
    pub(crate) program: Program,
    /// The program's text and the origin of each of its lines.
    pub printed: Printed,
    pub(crate) time: Duration,
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
    let uf = wants_arrays_uf(&t.program);
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
pub(crate) fn keep_files(dir: &Path, seq: &str, outcome: &cbmc::Outcome) -> Result<()> {
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

/// The options most likely to help a CBMC run that ran out of time or memory in `phase`.
fn what_may_help(phase: cbmc::Phase) -> &'static str {
    match phase {
        cbmc::Phase::FrontEnd => "a smaller harness (fewer files or functions) or fewer --rounds",
        cbmc::Phase::SymbolicExecution | cbmc::Phase::Formula => {
            "a smaller --unwind or fewer --rounds, or --swarm N to split the check"
        }
        cbmc::Phase::Solving => "--swarm N to split the search, or fewer --rounds",
    }
}

/// Why a CBMC run stopped by the time limit gave no answer, for the user: the phase it had
/// reached, the program's size, and the option most likely to help.
fn out_of_time(stdout: &str, stats: &Stats) -> String {
    let phase = cbmc::phase_reached(stdout);
    let help = what_may_help(phase);
    format!(
        "CBMC ran out of time in {} ({} thread slots, {} visible statements, {} \
         instrumented accesses); may help: {help}",
        phase.words(),
        stats.slots,
        stats.visible,
        stats.instrumented
    )
}

/// Why a CBMC run that ran out of memory (in `phase`) gave no answer, for the user: the
/// phase, the program's size, and the options most likely to help.
fn out_of_memory(phase: cbmc::Phase, stats: &Stats) -> String {
    let help = what_may_help(phase);
    format!(
        "CBMC ran out of memory in {} ({} thread slots, {} visible statements, {} \
         instrumented accesses); may help: a larger --memory MB if the machine has it, {help}",
        phase.words(),
        stats.slots,
        stats.visible,
        stats.instrumented
    )
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
        phases: cbmc::phase_times(&outcome.stdout),
    };
    let mut trace = vec![];
    let verdict = match outcome.verdict {
        cbmc::Verdict::Verified => Finding::NoRace,
        cbmc::Verdict::Unknown { reason } => Finding::Unknown {
            reason: if outcome.timed_out {
                out_of_time(&outcome.stdout, &stats)
            } else if let Some(phase) = cbmc::out_of_memory(&outcome.stdout, &outcome.stderr) {
                out_of_memory(phase, &stats)
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
                            site,
                            slot,
                        }))
                    };
                    match (access(w), access(r)) {
                        (Some(first), Some(second))
                            if program.summaries.is_empty() || program.exact_summaries =>
                        {
                            Finding::Race { first, second }
                        }
                        (Some(_), Some(_)) => Finding::Unknown {
                            reason: summarised(parsed, &program.summaries),
                        },
                        // Only an inconsistency of the encoding (or of CBMC's shadow memory)
                        // gets here: every flag set records its site.
                        _ => Finding::Unknown {
                            reason: format!(
                                "internal error: CBMC's counterexample reports a race between \
                                 access sites {} and {}",
                                describe_site(parsed, &program, w),
                                describe_site(parsed, &program, r)
                            ),
                        },
                    }
                }
                _ => Finding::Unknown {
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
        vacuity_unanswered: false,
        program,
        trace,
        origins: t.printed.origins,
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

/// Why a race found with set-up loops made one step is not reported (`Program::summaries`).
fn summarised(parsed: &Parsed, loops: &[lang_c::span::Span]) -> String {
    let at: Vec<String> = loops
        .iter()
        .map(|s| {
            let l = parsed.map.lookup(s.start);
            format!("{}:{}", l.file, l.line)
        })
        .collect();
    format!(
        "a race was found, but only with the set-up loop{} at {} made one step that gives \
         what it writes arbitrary values: the race may rest on values the loop never \
         stores; a --max-unwind at least its iteration count checks the loop exactly",
        if at.len() == 1 { "" } else { "s" },
        at.join(", ")
    )
}

/// The last value CBMC assigned to global `name` in the trace.
fn last_value(trace: &[cbmc::Step], name: &str) -> Option<u32> {
    trace
        .iter()
        .rev()
        .filter(|s| s.kind == "assignment" && s.lhs.as_deref() == Some(name))
        .find_map(|s| s.unsigned_value().and_then(|v| u32::try_from(v).ok()))
}
