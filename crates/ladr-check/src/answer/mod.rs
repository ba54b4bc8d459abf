//! The answer of a check, as plain data in the user's terms: the verdict, every race found
//! with its two accesses (file, line, column, lvalue, thread, values, locks held) and the
//! interleaving that leads there, the bounds and cuts a "no race" holds for, the
//! assumptions, how the search ended, the deepening schedule and the measures. No syntax
//! tree, no CBMC trace: the trace is mapped to the user's program here ([`trace`],
//! [`locks`]), before the programs of the check are freed, and the report renders only this.
//!
//! The types derive `Serialize`: their field names are the JSON schema of `--format json`
//! (docs/output.md, "JSON schema"); `ladr-report` adds the document's envelope (schema version, input,
//! tool) and renders every other format from the same data.

mod locks;
mod proof;
pub(crate) mod steps;
pub(crate) mod trace;

pub use locks::LockHeld;
pub use proof::{GiveUp, ObjectAnswer, ProofAnswer};

use crate::parallel::Deepening;
use crate::{Races, Report, SearchEnd};
use ladr_c::frontend::Parsed;
use ladr_ir::program::{AssumedResult, CutKind, Options};
use serde::{Deserialize, Serialize};

/// What a check found.
#[derive(Clone, Debug)]
pub struct Answer {
    pub verdict: Verdict,
    pub bounds: Bounds,
    /// The races found, in the order found (empty unless the verdict is a race).
    pub races: Vec<Race>,
    /// How the search for races ended (none for the answer of one recorded check).
    pub search: Option<Search>,
    /// What the verdict takes for granted ([`assumption_text`]).
    pub assumptions: Vec<String>,
    pub stats: Stats,
    /// What every bound pair of the deepening schedule gave.
    pub schedule: Deepening,
    /// A "no race" of the constant-loop probe, given because the first bound pair of the
    /// deepening gave no answer: why it gave none.
    pub fallback: Option<String>,
    /// What the static analysis said (none: it did not run). `proved`: the verdict is "no
    /// race in any execution", no bound pair ran.
    pub proof: Option<ProofAnswer>,
}

impl Answer {
    /// The static analysis proved every pair race-free: the "no race" holds for every
    /// execution.
    pub fn proved(&self) -> bool {
        self.proof.as_ref().is_some_and(|p| p.proved)
    }
}

/// The answer of the static analysis alone (no CBMC run, no bounds): "no race" when it
/// proved every pair race-free, else no verdict (`proof` says which pairs it left).
pub(crate) fn of_proof(proof: ProofAnswer, parsed: &Parsed, opts: &Options) -> Answer {
    let verdict = if proof.proved {
        Verdict::NoRace
    } else {
        Verdict::Unknown {
            reason: "the static analysis did not prove every pair of accesses race-free".into(),
        }
    };
    Answer {
        verdict,
        bounds: Bounds {
            omp_threads: parsed.omp_threads,
            ..Bounds::uncut(opts)
        },
        races: vec![],
        search: Some(Search {
            ended: Word::new("all-found"),
            reason: None,
        }),
        assumptions: proof.assumptions.clone(),
        stats: Stats {
            translate_s: proof.time_s,
            ..Stats::default()
        },
        schedule: Deepening::default(),
        fallback: None,
        proof: Some(proof),
    }
}

/// The verdict of a check.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    Race,
    NoRace,
    /// No verdict: time limit, CBMC failure (why).
    Unknown {
        reason: String,
    },
}

impl Verdict {
    /// `race`, `no-race` or `unknown`, as the JSON document names it.
    pub fn name(&self) -> &'static str {
        match self {
            Verdict::Race => "race",
            Verdict::NoRace => "no-race",
            Verdict::Unknown { .. } => "unknown",
        }
    }
}

/// A fixed word of the answer (`write`, `mutex`, `race`): the answer's own words are
/// `'static`, a word read back (`ladr check`'s result cache) is owned. Serialised as the
/// string it is.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Word(std::borrow::Cow<'static, str>);

impl Word {
    /// One of the answer's own words.
    pub const fn new(word: &'static str) -> Word {
        Word(std::borrow::Cow::Borrowed(word))
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl From<&'static str> for Word {
    fn from(word: &'static str) -> Word {
        Word::new(word)
    }
}

impl std::ops::Deref for Word {
    type Target = str;
    fn deref(&self) -> &str {
        &self.0
    }
}

impl std::borrow::Borrow<str> for Word {
    fn borrow(&self) -> &str {
        &self.0
    }
}

impl PartialEq<str> for Word {
    fn eq(&self, other: &str) -> bool {
        *self.0 == *other
    }
}

impl PartialEq<&str> for Word {
    fn eq(&self, other: &&str) -> bool {
        *self.0 == **other
    }
}

impl std::fmt::Display for Word {
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Bounds {
    pub rounds: u32,
    pub unwind: u32,
    /// The program has loops, recursion or thread creation cut at the bounds, so "no race"
    /// holds only for executions within them.
    pub cut: bool,
    /// Which kinds of cut the program has (`loop`, `recursion`, `function-pointer`,
    /// `thread-nesting`, `thread-count`, `threads`, `heap-size`, `arguments`).
    pub cuts: Vec<Word>,
    /// A "no race" that is vacuous: the program creates threads, but no execution within
    /// the bounds creates one, so no access of a thread was checked (larger bounds may).
    pub vacuous: bool,
    /// Where the loops the unwinding cut are (each once, in source order); absent when
    /// none was cut.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub cut_loops: Vec<Position>,
    /// The size of the OpenMP teams the program does not size (`--omp-threads`): a bound
    /// of the answer; absent when the program has no such `parallel` region.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub omp_threads: Option<usize>,
    /// The `--omp-threads` the deepening started from, when it grew the team to
    /// `omp_threads`; absent when it did not.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub omp_threads_from: Option<usize>,
    /// With a `heap-size` cut: the bytes of a heap block whose size is computed at run
    /// time (`--heap-block`), and the user's allocations that have such blocks.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub heap_block: Option<u32>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub cut_allocations: Vec<Position>,
}

impl Bounds {
    /// The bounds `opts` with nothing cut (the answer of a check that ended in an error).
    pub fn uncut(opts: &Options) -> Bounds {
        Bounds {
            rounds: opts.rounds,
            unwind: opts.unwind,
            cut: false,
            cuts: vec![],
            vacuous: false,
            cut_loops: vec![],
            omp_threads: None,
            omp_threads_from: None,
            heap_block: None,
            cut_allocations: vec![],
        }
    }
}

/// How the search for races ended.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq)]
pub struct Search {
    /// `all-found`: the last check found no further race within the bounds, so every race
    /// within them is reported; `max-races`: as many as asked for were found (more may
    /// exist); `stopped`: a check gave no answer (time limit, CBMC failure).
    pub ended: Word,
    /// Why the search stopped (for `stopped`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
}

impl Search {
    fn of(end: &SearchEnd) -> Search {
        let (ended, reason) = match end {
            SearchEnd::AllFound => ("all-found", None),
            SearchEnd::MaxRaces => ("max-races", None),
            SearchEnd::Stopped { reason } => ("stopped", Some(reason.clone())),
        };
        Search {
            ended: ended.into(),
            reason,
        }
    }
}

/// A race: the two accesses and the interleaving that leads to it.
#[derive(Clone, Debug)]
pub struct Race {
    /// [first, second]: the write that ends context C1, the access that begins C2.
    pub accesses: [AccessInfo; 2],
    pub interleaving: Vec<Context>,
}

#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct AccessInfo {
    pub file: String,
    pub line: u32,
    pub column: u32,
    /// `read` or `write`.
    pub kind: Word,
    pub atomic: bool,
    /// The lvalue as written in the source (`buf[i].len`, `*p`, `x`), or for the hidden
    /// state of a C library function what it is (`libc's state of `strtok``).
    pub expr: String,
    /// The access is a call of this MT-Unsafe C library function (`strtok`) using its
    /// hidden static state; the call is at `line` and `column`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub libc_state: Option<String>,
    /// The function the access is written in (null: outside any, e.g. an initialiser).
    pub function: Option<String>,
    /// In an OpenMP program: the innermost construct whose statement holds the access
    /// (`parallel for`, `single`, …) and where its directive is; absent outside any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub omp_construct: Option<OmpConstruct>,
    pub thread: Thread,
    /// Values CBMC gives for the variables in `expr` (e.g. an index), as CBMC prints them.
    pub values: Vec<Value>,
    /// The locks the access's thread holds at the access (mutexes, rwlocks with their mode,
    /// spinlocks), read from the counterexample.
    pub locks_held: Vec<LockHeld>,
    /// The access is in an atomic section (`__VERIFIER_atomic_begin`/`end`, an atomic
    /// function).
    pub atomic_section: bool,
    /// Byte offset of the access in the input (for diagnostics; not serialised).
    #[serde(skip)]
    pub offset: (usize, usize),
}

impl AccessInfo {
    /// What the access accesses, for a sentence: the lvalue in backquotes (`` `x` ``), or
    /// the description of a library function's hidden state as it is.
    pub fn quoted(&self) -> String {
        if self.libc_state.is_some() {
            self.expr.clone()
        } else {
            format!("`{}`", self.expr)
        }
    }

    /// The access in words: `write of `x``, `atomic read of `a[i]``.
    pub fn words(&self) -> String {
        format!(
            "{}{} of {}",
            if self.atomic { "atomic " } else { "" },
            self.kind,
            self.quoted()
        )
    }
}

/// An OpenMP construct named in a report: `parallel for` at `a.c:12`.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq)]
pub struct OmpConstruct {
    /// The directive's name (`parallel for`, `sections`, `critical`).
    pub name: String,
    /// Where its `#pragma omp` is.
    pub at: Position,
}

#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Value {
    pub name: String,
    pub value: String,
}

#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq)]
pub struct Thread {
    /// Thread slot: 0 is `main`, then one per `pthread_create` site (copy).
    pub slot: usize,
    /// The start routine.
    pub function: String,
    /// The `pthread_create` call that made it (none for `main`).
    pub created_at: Option<Position>,
    /// In an OpenMP program: the thread's number in its team (`omp_get_thread_num()`), as
    /// the counterexample last set it (none before its team started, or without OpenMP).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub omp_thread_num: Option<u64>,
    /// A thread a `teams` construct started: the team whose initial thread it is (its
    /// `omp_get_team_num()`; its `omp_get_thread_num()` is 0), in place of `omp_thread_num`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub omp_team_num: Option<u64>,
    /// The `)` that closes that call's arguments (where witness format 2.x puts a
    /// `function_enter` waypoint; not serialised).
    #[serde(skip)]
    pub call_end: Option<Position>,
}

#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq)]
pub struct Position {
    pub file: String,
    pub line: u32,
    pub column: u32,
}

impl Position {
    /// `file:line, file:line, …`: places named in a sentence (cut loops, allocations).
    pub fn places(ps: &[Position]) -> String {
        (ps.iter())
            .map(|p| format!("{}:{}", p.file, p.line))
            .collect::<Vec<_>>()
            .join(", ")
    }
}

#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Context {
    /// 1-based position in the interleaving.
    pub index: usize,
    /// 1-based round-robin round.
    pub round: usize,
    pub thread: Thread,
    /// Original source lines this context ran, in order (repeats of a line collapsed).
    pub lines: Vec<Position>,
    /// Every step with an original location (for `-v`).
    #[serde(skip)]
    pub steps: Vec<StepInfo>,
    /// Index just past this context's last step in the CBMC trace.
    #[serde(skip)]
    pub end_step: usize,
}

#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct StepInfo {
    pub pos: Position,
    /// What happened: `x = 1`, `call pthread_mutex_lock`.
    pub what: String,
}

/// The measures of a check. With several CBMC runs (deepening, `--max-races`, swarm
/// instances) the times are those of all runs together (what the answer cost), and the sizes
/// are those of the one check whose answer is reported (the first race's, or for "no race"
/// the deepest finished bounds'): sizes of different bounds do not add up to a formula.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub struct Stats {
    /// Seconds spent before CBMC (passes and printing; the report adds parsing).
    pub translate_s: f64,
    pub cbmc_s: f64,
    pub slots: usize,
    pub visible_statements: u32,
    /// Accesses the race pass instrumented (its site table).
    pub instrumented_accesses: usize,
    pub formula_variables: Option<u64>,
    pub formula_clauses: Option<u64>,
    /// CBMC's own wall-clock seconds of symbolic execution, of building the formula and of
    /// the SAT solver, in the check whose answer is reported (null: not finished, or no
    /// CBMC run).
    #[serde(default)]
    pub symex_s: Option<f64>,
    #[serde(default)]
    pub formula_s: Option<f64>,
    #[serde(default)]
    pub sat_s: Option<f64>,
}

/// The answer of a search for races ([`crate::check`]): every race found, how the search
/// ended, what the schedule gave; the times are those of all its checks.
pub(crate) fn of_races(found: &Races, parsed: &Parsed, schedule: Deepening) -> Answer {
    let races = found
        .races()
        .filter_map(|r| trace::race(r, parsed))
        .collect();
    let times = (found.translate, found.cbmc);
    let search = Some(Search::of(&found.end));
    build(
        &found.reports[0],
        races,
        search,
        parsed,
        &found.bounds,
        times,
        schedule,
    )
}

/// The answer of one check from its report (at most one race; no `search`): for a recorded
/// CBMC outcome ([`crate::read_outcome`]).
pub(crate) fn of_report(report: &Report, parsed: &Parsed, opts: &Options) -> Answer {
    let races = trace::race(report, parsed).into_iter().collect();
    let times = (report.stats.translate, report.stats.cbmc);
    build(
        report,
        races,
        None,
        parsed,
        opts,
        times,
        Deepening::default(),
    )
}

/// The answer with the verdict, bounds, assumptions and formula of `report` (the first
/// check of a search) and the races given.
fn build(
    report: &Report,
    races: Vec<Race>,
    search: Option<Search>,
    parsed: &Parsed,
    opts: &Options,
    (translate, cbmc): (std::time::Duration, std::time::Duration),
    schedule: Deepening,
) -> Answer {
    let mut cuts: Vec<&'static str> = report.cuts.iter().map(|c| cut_name(*c)).collect();
    cuts.dedup();
    let verdict = match &report.verdict {
        crate::Finding::Race { .. } => Verdict::Race,
        crate::Finding::NoRace if report.vacuity_unanswered => Verdict::Unknown {
            reason: format!(
                "no race within {} rounds and {} unwindings, but whether any execution \
                 within them creates a thread is not known (the vacuity query gave no \
                 answer); may help: a longer --timeout",
                opts.rounds, opts.unwind
            ),
        },
        crate::Finding::NoRace => Verdict::NoRace,
        crate::Finding::Unknown { reason } => Verdict::Unknown {
            reason: reason.clone(),
        },
    };
    let no_race = verdict == Verdict::NoRace;
    Answer {
        bounds: Bounds {
            rounds: opts.rounds,
            unwind: opts.unwind,
            cut: !cuts.is_empty(),
            cuts: cuts.into_iter().map(Word::from).collect(),
            vacuous: report.vacuous && no_race,
            cut_loops: trace::cut_places(report, parsed, CutKind::Loop),
            omp_threads: parsed.omp_threads,
            omp_threads_from: None,
            heap_block: (report.cuts.contains(&CutKind::HeapSize)).then_some(opts.heap_block),
            cut_allocations: trace::cut_places(report, parsed, CutKind::HeapSize),
        },
        verdict,
        races,
        search,
        assumptions: report
            .program
            .assumptions
            .iter()
            .map(|a| assumption_text(&a.function, a.result))
            .collect(),
        stats: Stats {
            translate_s: translate.as_secs_f64(),
            cbmc_s: cbmc.as_secs_f64(),
            slots: report.stats.slots,
            visible_statements: report.stats.visible,
            instrumented_accesses: report.stats.instrumented,
            formula_variables: report.stats.variables,
            formula_clauses: report.stats.clauses,
            symex_s: report.stats.phases.symex,
            formula_s: report.stats.phases.convert,
            sat_s: report.stats.phases.sat,
        },
        schedule,
        fallback: report.fallback.clone(),
        proof: None,
    }
}

/// The assumption a call of `function` (no body, its result used) makes.
pub fn assumption_text(function: &str, result: AssumedResult) -> String {
    match result {
        AssumedResult::AnyValue => {
            format!("the result of `{function}` (no body) is any value of its type")
        }
        AssumedResult::FreshObject => format!(
            "the result of `{function}` (no body) is a null pointer or a fresh object of any \
             size, not one of the program's objects"
        ),
    }
}

fn cut_name(c: CutKind) -> &'static str {
    match c {
        CutKind::Loop => "loop",
        CutKind::Recursion => "recursion",
        CutKind::FunctionPointer => "function-pointer",
        CutKind::ThreadNesting => "thread-nesting",
        CutKind::ThreadCount => "thread-count",
        CutKind::Threads => "threads",
        CutKind::HeapSize => "heap-size",
        CutKind::Arguments => "arguments",
        CutKind::KeyDestructors => "key-destructors",
    }
}
