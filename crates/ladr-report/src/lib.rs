//! What a check found, in the user's terms: the verdict, and for each race found the two
//! racing accesses (file, line, column, lvalue, thread) and the interleaving that leads there,
//! built from CBMC's counterexample and the printer's line map. One data model ([`Outcome`]) feeds every
//! output format: the terminal ([`text`]), JSON (this model serialised; schema in the
//! README), SARIF ([`sarif`]) and the SV-COMP violation witness ([`witness`]).
//!
//! The interleaving comes from the trace: every call of a slot function `__ladr_threadK` by
//! the driver is one context of slot K; the steps inside it (assignments and calls whose
//! source line in the sequential program maps back to an original statement) give the
//! original lines that context ran.
//! Which steps are the user's is read from the printer's line map (`Origin::Source`
//! lines of `seq.i`), never from the names of the functions they are in.
//!
//! Architecture invariant: this crate runs no check and no CBMC; it renders a finished
//! `ladr_check::Report`. Only here (and in `ladr-eval`) is JSON written.

pub mod html;
pub mod locks;
pub mod sarif;
pub mod text;
pub mod witness;
pub mod yaml_witness;

use ladr_c::diag::{Error, ErrorKind};
use ladr_c::frontend::source_map::Loc;
use ladr_c::frontend::source_map::SourceMap;
use ladr_c::frontend::Parsed;
use ladr_c::syntax::names;
use ladr_cbmc::Step;
use ladr_check::{Access, Races, Report, SearchEnd, Verdict, SEQ_FILE};
use ladr_ir::abi::{self, slot_function};
use ladr_ir::program::{AssumedResult, CutKind, Options};
use lang_c::span::Span;
use serde::Serialize;
use std::path::Path;

/// Version of the JSON schema below; bumped on incompatible changes.
/// 2: `races` (every race found, each with its interleaving) replaced `race`; `search`.
pub const SCHEMA_VERSION: u32 = 2;

#[derive(Clone, Debug, Serialize)]
pub struct Outcome {
    pub schema: u32,
    /// `race`, `no-race`, `unknown` (no verdict: timeout, CBMC failure) or `error` (input
    /// ladr cannot check, or a usage error found after the command line was read).
    pub verdict: &'static str,
    /// Why there is no verdict (for `unknown` and `error`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// For `error`: the diagnostic.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<ErrorInfo>,
    pub input: String,
    pub bounds: Bounds,
    /// The time limit of the whole check in seconds (null: none).
    pub time_limit_s: Option<f64>,
    /// The races found, in the order found (empty unless the verdict is `race`).
    pub races: Vec<Race>,
    /// How the search for races ended (absent for `error`, and for an outcome of one check).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub search: Option<Search>,
    /// What the verdict takes for granted about functions without a body whose results the
    /// program uses ("the result of `foo` (no body) is any value of its type"); absent when
    /// none.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub assumptions: Vec<String>,
    pub stats: Stats,
    pub tool: Tool,
}

/// A diagnostic in the user's terms (`verdict: "error"`, or `unknown` from the back end).
#[derive(Clone, Debug, Serialize)]
pub struct ErrorInfo {
    /// `usage`, `syntax`, `unsupported`, `backend` or `internal`.
    pub kind: &'static str,
    pub message: String,
    /// Where, when the diagnostic has a place in the user's source.
    pub location: Option<Position>,
    pub notes: Vec<String>,
}

#[derive(Clone, Debug, Serialize)]
pub struct Bounds {
    pub rounds: u32,
    pub unwind: u32,
    /// The program has loops, recursion or thread creation cut at the bounds, so "no race"
    /// holds only for executions within them.
    pub cut: bool,
    /// Which kinds of cut the program has (`loop`, `recursion`, `function-pointer`,
    /// `thread-nesting`, `thread-count`, `heap-size`, `arguments`).
    pub cuts: Vec<&'static str>,
    /// A "no race" that is vacuous: the program creates threads, but no execution within
    /// the bounds creates one, so no access of a thread was checked (larger bounds may).
    pub vacuous: bool,
    /// Where the loops the unwinding cut are (each once, in source order); absent when
    /// none was cut.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub cut_loops: Vec<Position>,
}

/// How the search for races ended.
#[derive(Clone, Debug, Serialize, PartialEq, Eq)]
pub struct Search {
    /// `all-found`: the last check found no further race within the bounds, so every race
    /// within them is reported; `max-races`: as many as asked for were found (more may
    /// exist); `stopped`: a check gave no answer (time limit, CBMC failure).
    pub ended: &'static str,
    /// Why the search stopped (for `stopped`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
}

impl Search {
    fn of(end: &SearchEnd) -> Search {
        let (ended, reason) = match end {
            SearchEnd::AllFound => ("all-found", None),
            SearchEnd::MaxRaces => ("max-races", None),
            SearchEnd::Stopped { reason } => ("stopped", Some(reason.clone())),
        };
        Search { ended, reason }
    }
}

#[derive(Clone, Debug, Serialize)]
pub struct Race {
    /// [first, second]: the write that ends context C1, the access that begins C2.
    pub accesses: [AccessInfo; 2],
    /// Identifies the race across runs and edits elsewhere (SARIF's `ladrRace/v1`, see
    /// [`sarif::fingerprint`]): what a baseline compares.
    pub fingerprint: String,
    pub interleaving: Vec<Context>,
}

#[derive(Clone, Debug, Serialize)]
pub struct AccessInfo {
    pub file: String,
    pub line: u32,
    pub column: u32,
    /// `read` or `write`.
    pub kind: &'static str,
    pub atomic: bool,
    /// The lvalue as written in the source (`buf[i].len`, `*p`, `x`), or for the hidden
    /// state of a C library function what it is (`libc's state of `strtok``).
    pub expr: String,
    /// The access is a call of this MT-Unsafe C library function (`strtok`) using its
    /// hidden static state; the call is at `line` and `column`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub libc_state: Option<String>,
    /// The function the access is written in (null: outside any, e.g. an initialiser).
    pub function: Option<String>,
    pub thread: Thread,
    /// Values CBMC gives for the variables in `expr` (e.g. an index), as CBMC prints them.
    pub values: Vec<Value>,
    /// The locks the access's thread holds at the access (mutexes, rwlocks with their mode,
    /// spinlocks), read from the counterexample.
    pub locks_held: Vec<locks::LockHeld>,
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

#[derive(Clone, Debug, Serialize)]
pub struct Value {
    pub name: String,
    pub value: String,
}

#[derive(Clone, Debug, Serialize, PartialEq, Eq)]
pub struct Thread {
    /// Thread slot: 0 is `main`, then one per `pthread_create` site (copy).
    pub slot: usize,
    /// The start routine.
    pub function: String,
    /// The `pthread_create` call that made it (none for `main`).
    pub created_at: Option<Position>,
    /// The `)` that closes that call's arguments (where witness format 2.x puts a
    /// `function_enter` waypoint; not serialised).
    #[serde(skip)]
    pub call_end: Option<Position>,
}

#[derive(Clone, Debug, Serialize, PartialEq, Eq)]
pub struct Position {
    pub file: String,
    pub line: u32,
    pub column: u32,
}

#[derive(Clone, Debug, Serialize)]
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

#[derive(Clone, Debug, Serialize)]
pub struct StepInfo {
    pub pos: Position,
    /// What happened: `x = 1`, `call pthread_mutex_lock`.
    pub what: String,
}

/// The measures of a check. With several CBMC runs (deepening, `--max-races`, swarm
/// instances) the times are those of all runs together (what the answer cost), and the sizes
/// are those of the one check whose answer is reported (the first race's, or for "no race"
/// the deepest finished bounds'): sizes of different bounds do not add up to a formula.
#[derive(Clone, Debug, Serialize)]
pub struct Stats {
    /// Seconds spent before CBMC (parse, passes, printing).
    pub translate_s: f64,
    pub cbmc_s: f64,
    pub slots: usize,
    pub visible_statements: u32,
    /// Accesses the race pass instrumented (its site table).
    pub instrumented_accesses: usize,
    pub formula_variables: Option<u64>,
    pub formula_clauses: Option<u64>,
}

#[derive(Clone, Debug, Serialize)]
pub struct Tool {
    pub name: &'static str,
    pub version: &'static str,
}

pub const TOOL: Tool = Tool {
    name: "ladr",
    version: env!("CARGO_PKG_VERSION"),
};

/// The JSON document of `--format json`: the outcome serialised (schema in the README).
pub fn json(o: &Outcome) -> String {
    serde_json::to_string_pretty(o).expect("an Outcome always serialises")
}

/// The outcome of a check that ended with an error before a verdict: `error` for input
/// ladr cannot check and usage errors (exit 2), `unknown` for a back-end failure (exit 3).
/// `map` locates the error's span (the error's own map, for syntax errors, comes first).
pub fn error_outcome(input: &str, e: &Error, map: Option<&SourceMap>, opts: &Options) -> Outcome {
    let backend = e.kind.no_verdict();
    let location = map
        .or(e.source.as_deref())
        .and_then(|m| e.loc(m))
        .map(|l| position(&l));
    Outcome {
        schema: SCHEMA_VERSION,
        verdict: if backend { "unknown" } else { "error" },
        reason: Some(e.message.clone()),
        error: Some(ErrorInfo {
            kind: match e.kind {
                ErrorKind::Usage => "usage",
                ErrorKind::Syntax => "syntax",
                ErrorKind::Unsupported => "unsupported",
                ErrorKind::Backend => "backend",
                ErrorKind::Internal => "internal",
                ErrorKind::Resources => "resources",
            },
            message: e.message.clone(),
            location,
            notes: e.notes.clone(),
        }),
        input: input.to_string(),
        time_limit_s: None,
        bounds: Bounds {
            rounds: opts.rounds,
            unwind: opts.unwind,
            cut: false,
            cuts: vec![],
            vacuous: false,
            cut_loops: vec![],
        },
        races: vec![],
        search: None,
        assumptions: vec![],
        stats: Stats {
            translate_s: 0.0,
            cbmc_s: 0.0,
            slots: 0,
            visible_statements: 0,
            instrumented_accesses: 0,
            formula_variables: None,
            formula_clauses: None,
        },
        tool: TOOL,
    }
}

/// The race happens at the second access: C2, the last context, is shown up to that
/// access, not as far as CBMC's trace ran it on (the values of C2's variables are read
/// before, from the whole context).
fn end_at_access(interleaving: &mut [Context], second: &AccessInfo) {
    let Some(c2) = interleaving.last_mut() else {
        return;
    };
    if c2.thread.slot != second.thread.slot {
        return;
    }
    let at = |p: &Position| p.file == second.file && p.line == second.line;
    if let Some(i) = c2.lines.iter().position(at) {
        c2.lines.truncate(i + 1);
    }
    if let Some(i) = c2.steps.iter().position(|s| at(&s.pos)) {
        let end = c2.steps[i..]
            .iter()
            .position(|s| !at(&s.pos))
            .map_or(c2.steps.len(), |n| i + n);
        c2.steps.truncate(end);
    }
}

/// The race a report found, with its interleaving.
fn race(report: &Report, parsed: &Parsed, root: &Path) -> Option<Race> {
    let Verdict::Race { first, second } = &report.verdict else {
        return None;
    };
    let mut interleaving = interleaving(report, parsed);
    let mut accesses = [
        access_info(first, report, parsed, &interleaving, true),
        access_info(second, report, parsed, &interleaving, false),
    ];
    let held = locks::held_at_race(report, parsed);
    for a in &mut accesses {
        a.locks_held = held.get(a.thread.slot).cloned().unwrap_or_default();
    }
    end_at_access(&mut interleaving, &accesses[1]);
    let mut race = Race {
        accesses,
        fingerprint: String::new(),
        interleaving,
    };
    race.fingerprint = sarif::race_fingerprint(&race, root);
    Some(race)
}

/// Builds the outcome of one check (at most one race; no `search`).
pub fn outcome(report: &Report, parsed: &Parsed, opts: &Options, parse_time: f64) -> Outcome {
    let root = sarif::root(&parsed.path);
    let races = race(report, parsed, &root).into_iter().collect();
    let times = (report.stats.translate, report.stats.cbmc);
    build(report, races, None, parsed, opts, parse_time, times)
}

/// Builds the outcome of a search for races ([`ladr_check::check_races`]): every race found,
/// and how the search ended; the times are those of all its checks.
pub fn races_outcome(found: &Races, parsed: &Parsed, parse_time: f64) -> Outcome {
    let root = sarif::root(&parsed.path);
    let races: Vec<Race> = found
        .races()
        .filter_map(|r| race(r, parsed, &root))
        .collect();
    let first = &found.reports[0];
    let search = Some(Search::of(&found.end));
    let times = (found.translate, found.cbmc);
    build(
        first,
        races,
        search,
        parsed,
        &found.bounds,
        parse_time,
        times,
    )
}

/// The outcome with the verdict, bounds, assumptions and formula of `report` (the first
/// check of a search) and the races given.
fn build(
    report: &Report,
    races: Vec<Race>,
    search: Option<Search>,
    parsed: &Parsed,
    opts: &Options,
    parse_time: f64,
    (translate, cbmc): (std::time::Duration, std::time::Duration),
) -> Outcome {
    let mut cuts: Vec<&'static str> = report.cuts.iter().map(|c| cut_name(*c)).collect();
    cuts.dedup();
    let (verdict, reason) = match &report.verdict {
        Verdict::Race { .. } => ("race", None),
        Verdict::NoRace => ("no-race", None),
        Verdict::Unknown { reason } => ("unknown", Some(reason.clone())),
    };
    Outcome {
        schema: SCHEMA_VERSION,
        verdict,
        reason,
        error: None,
        input: parsed.path.display().to_string(),
        time_limit_s: None,
        bounds: Bounds {
            rounds: opts.rounds,
            unwind: opts.unwind,
            cut: !cuts.is_empty(),
            cuts,
            vacuous: report.vacuous && matches!(report.verdict, Verdict::NoRace),
            cut_loops: cut_loops(report, parsed),
        },
        races,
        search,
        assumptions: report
            .program
            .assumptions
            .iter()
            .map(|a| assumption_text(&a.function, a.result))
            .chain(
                (matches!(report.verdict, Verdict::NoRace) && report.unbounded_pointers > 0)
                    .then(|| unbounded_text(report.unbounded_pointers)),
            )
            .collect(),
        stats: Stats {
            translate_s: parse_time + translate.as_secs_f64(),
            cbmc_s: cbmc.as_secs_f64(),
            slots: report.stats.slots,
            visible_statements: report.stats.visible,
            instrumented_accesses: report.stats.instrumented,
            formula_variables: report.stats.variables,
            formula_clauses: report.stats.clauses,
        },
        tool: TOOL,
    }
}

/// The assumption a call of `function` (no body, its result used) makes.
pub fn assumption_text(function: &str, result: AssumedResult) -> String {
    match result {
        AssumedResult::AnyValue => {
            format!("the result of `{function}` (no body) is any value of its type")
        }
        AssumedResult::FreshObject => format!(
            "the result of `{function}` (no body) is a null pointer or a fresh object of its \
             pointee type, not one of the program's objects"
        ),
    }
}

/// The assumption of a "no race" whose check had pointers CBMC could not bound
/// (`Report::unbounded_pointers`).
pub fn unbounded_text(n: usize) -> String {
    format!(
        "accesses through {n} pointer{} whose target CBMC could not bound (read from memory \
         never written, or made from an integer) may not have been checked for races",
        if n == 1 { "" } else { "s" }
    )
}

fn cut_name(c: CutKind) -> &'static str {
    match c {
        CutKind::Loop => "loop",
        CutKind::Recursion => "recursion",
        CutKind::FunctionPointer => "function-pointer",
        CutKind::ThreadNesting => "thread-nesting",
        CutKind::ThreadCount => "thread-count",
        CutKind::HeapSize => "heap-size",
        CutKind::Arguments => "arguments",
        CutKind::KeyDestructors => "key-destructors",
    }
}

/// The user's loops that the unwinding of `report`'s program cut, each once, in order.
fn cut_loops(report: &Report, parsed: &Parsed) -> Vec<Position> {
    let mut starts: Vec<usize> = report
        .program
        .cuts
        .iter()
        .filter(|c| c.kind == CutKind::Loop && c.span.start < ladr_c::origin::BUILTIN_BASE)
        .map(|c| c.span.start)
        .collect();
    starts.sort_unstable();
    starts.dedup();
    let mut out: Vec<Position> = starts
        .into_iter()
        .map(|s| position(&parsed.map.lookup(s)))
        .collect();
    out.dedup_by(|a, b| a.file == b.file && a.line == b.line);
    out
}

fn position(l: &Loc) -> Position {
    Position {
        file: l.file.clone(),
        line: l.line,
        column: l.column,
    }
}

/// The thread of slot `k`.
pub fn thread(report: &Report, parsed: &Parsed, k: usize) -> Thread {
    let slot = &report.program.slots[k];
    Thread {
        slot: k,
        function: slot.routine.clone(),
        created_at: slot
            .created_at
            .map(|s| position(&parsed.map.lookup(s.start))),
        call_end: slot.created_at.and_then(|s| {
            let text = parsed.text.get(s.start..s.end)?;
            let close = s.start + text.rfind(')')?;
            Some(position(&parsed.map.lookup(close)))
        }),
    }
}

fn access_info(
    a: &Access,
    report: &Report,
    parsed: &Parsed,
    contexts: &[Context],
    first: bool,
) -> AccessInfo {
    AccessInfo {
        file: a.loc.file.clone(),
        line: a.loc.line,
        column: a.loc.column,
        kind: if a.site.write { "write" } else { "read" },
        atomic: a.site.atomic,
        expr: a.site.expr.clone(),
        libc_state: a.site.libc_state.clone(),
        function: enclosing_function(&parsed.unit, a.site.span.start),
        thread: thread(report, parsed, a.slot.index),
        values: values(a, report, contexts, first),
        locks_held: vec![],
        atomic_section: locks::in_atomic_section(parsed, a.site.span.start),
        offset: (a.site.span.start, a.site.span.end),
    }
}

/// The user's function whose definition holds offset `at` of the parsed text.
fn enclosing_function(unit: &lang_c::ast::TranslationUnit, at: usize) -> Option<String> {
    unit.0.iter().find_map(|d| match &d.node {
        lang_c::ast::ExternalDeclaration::FunctionDefinition(f)
            if f.span.start <= at && at < f.span.end =>
        {
            ladr_c::syntax::build::function_name(&f.node)
                .map(|n| ladr_c::syntax::names::original_name(n).to_string())
        }
        _ => None,
    })
}

/// The last values CBMC assigned, up to the end of the access's context (C1 for the first
/// access, C2 — the last context — for the second), to the variables named in the access's
/// lvalue (`i` in `buf[i]`, `p` in `*p`).
fn values(a: &Access, report: &Report, contexts: &[Context], first: bool) -> Vec<Value> {
    let second = contexts.last();
    let ctx = if first {
        let n = contexts.len().saturating_sub(1);
        contexts[..n]
            .iter()
            .rev()
            .find(|c| c.thread.slot == a.slot.index)
    } else {
        second
    };
    let Some(ctx) = ctx else {
        return vec![];
    };
    let mut out = vec![];
    // A library function's hidden state has no variables of the program.
    if a.site.libc_state.is_some() {
        return out;
    }
    // The accessed variable itself is not what the values explain (`i` in `a[i]` is).
    for id in identifiers(&a.site.expr)
        .into_iter()
        .filter(|id| *id != a.site.expr)
    {
        let v = report.trace[..ctx.end_step].iter().rev().find_map(|s| {
            let lhs = s.lhs.as_deref()?;
            (s.kind == "assignment" && names::original_name(lhs) == id && !s.is_internal())
                .then(|| s.value.clone())
                .flatten()
        });
        // Whole arrays and structs say nothing about which element raced.
        if let Some(value) = v.filter(|v| !v.starts_with('{') && v != "unknown") {
            out.push(Value {
                name: id.to_string(),
                value: user_text(&value),
            });
        }
    }
    out
}

/// Is `lhs` (as CBMC names an assigned lvalue) one of the user's variables? Not ladr's own
/// (model, scheduler, flags), not its temporaries (`__ladr_t7`), not CBMC's (`tmp_if_expr`,
/// `return_value_f`, `x$1`).
fn is_user_variable(lhs: &str) -> bool {
    let base = lhs
        .split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .next()
        .unwrap_or(lhs);
    !names::is_internal(base)
        && !names::is_temporary(base)
        && !lhs.contains('$')
        && !base.starts_with("tmp_if_expr")
        && !base.starts_with("return_value_")
}

/// A C text from CBMC (an lvalue or a value) in the user's names: renamed locals get their
/// own names back (`__ladr_3_pool` → `pool`) and CBMC's instance suffixes (`x!0@1`) go.
fn user_text(text: &str) -> String {
    let text = without_padding(text);
    let mut out = String::new();
    let mut rest = text.as_str();
    while let Some(c) = rest.chars().next() {
        if c.is_ascii_alphabetic() || c == '_' {
            let end = rest
                .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
                .unwrap_or(rest.len());
            let word = &rest[..end];
            rest = &rest[end..];
            match word {
                // CBMC's heap objects: `dynamic_object$0`.
                "dynamic_object" if rest.starts_with('$') => {
                    let digits = rest[1..]
                        .find(|c: char| !c.is_ascii_digit())
                        .map_or(rest.len(), |n| n + 1);
                    out.push_str(&format!("(heap object {})", &rest[1..digits]));
                    rest = &rest[digits..];
                }
                "dynamic_object" => out.push_str("(heap object)"),
                w if w == abi::ARGV => out.push_str("(the command-line arguments)"),
                w if names::is_internal(w) => out.push_str("(an object of ladr's model)"),
                w => out.push_str(names::original_name(w)),
            }
            // `!0@1#2`: CBMC's level-1/2 renaming of the symbol just written.
            while let Some(r) = rest.strip_prefix(['!', '@', '#']) {
                let digits = r.find(|c: char| !c.is_ascii_digit()).unwrap_or(r.len());
                if digits == 0 {
                    break;
                }
                rest = &r[digits..];
            }
        } else if c.is_ascii_digit() {
            // A number (`1l`, `0x10`): copied whole, so its suffix is not a name.
            let end = rest
                .find(|c: char| !(c.is_ascii_alphanumeric() || c == '.'))
                .unwrap_or(rest.len());
            out.push_str(&rest[..end]);
            rest = &rest[end..];
        } else {
            out.push(c);
            rest = &rest[c.len_utf8()..];
        }
    }
    out
}

/// The identifiers of a C expression's text (not member names after `.`/`->`).
fn identifiers(expr: &str) -> Vec<&str> {
    let mut out: Vec<&str> = vec![];
    let bytes = expr.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        let c = bytes[i];
        if c.is_ascii_alphabetic() || c == b'_' {
            let start = i;
            while i < bytes.len() && (bytes[i].is_ascii_alphanumeric() || bytes[i] == b'_') {
                i += 1;
            }
            let before = expr[..start].trim_end();
            let member = before.ends_with('.') || before.ends_with("->");
            let word = &expr[start..i];
            if !member && !out.contains(&word) && word != "sizeof" {
                out.push(word);
            }
        } else {
            i += 1;
        }
    }
    out
}

/// (slot, round, start, end) of the driver's calls of slot functions, in trace order; the
/// round (1-based) from the context number the driver sets before each call.
fn context_ranges(trace: &[Step], slots: usize) -> Vec<(usize, usize, usize, usize)> {
    let names: Vec<String> = (0..slots).map(slot_function).collect();
    let mut out = vec![];
    let mut open: Option<(usize, usize)> = None;
    let mut round = 1;
    for (i, s) in trace.iter().enumerate() {
        match s.kind.as_str() {
            "assignment" if s.lhs.as_deref() == Some(abi::CONTEXT) => {
                if let Some(cx) = s.unsigned_value() {
                    round = cx as usize / slots.max(1) + 1;
                }
            }
            "function-call" => {
                if let Some(k) = s
                    .callee
                    .as_deref()
                    .and_then(|c| names.iter().position(|n| n == c))
                {
                    open = Some((k, i));
                }
            }
            "function-return" => {
                if let (Some((k, start)), Some(c)) = (open, s.callee.as_deref()) {
                    if names[k] == c {
                        out.push((k, round, start, i));
                        open = None;
                    }
                }
            }
            _ => {}
        }
    }
    if let Some((k, start)) = open {
        out.push((k, round, start, trace.len()));
    }
    out
}

/// The contexts of the counterexample that ran at least one original statement.
pub fn interleaving(report: &Report, parsed: &Parsed) -> Vec<Context> {
    let slots = report.program.slots.len();
    // The functions of the sequential program: a call of any other enters CBMC's own
    // library (`__atomic_fetch_add_S32` calling `__atomic_thread_fence`) or an external
    // function, whose steps until it returns are not the user's: CBMC locates its one body
    // at the first call of it, so they showed that call's line in every thread (issue 27,
    // item 11).
    let defined: std::collections::HashSet<&str> = report
        .program
        .unit
        .0
        .iter()
        .filter_map(|d| match &d.node {
            lang_c::ast::ExternalDeclaration::FunctionDefinition(f) => {
                ladr_c::syntax::build::function_name(&f.node)
            }
            _ => None,
        })
        .collect();
    let mut out: Vec<Context> = vec![];
    for (k, round, start, end) in context_ranges(&report.trace, slots) {
        let mut lines: Vec<Position> = vec![];
        let mut steps = vec![];
        // After a call, the bindings of the callee's parameters: not the user's assignments
        // (the user's own functions are inlined, so every call left is one of the model, of
        // CBMC's library (`malloc`) or of an external function).
        let mut in_call = false;
        // The array last written at a symbolic index, on its line: CBMC's trace then lists
        // every element and member again (`a[0l] = { … }`, `a[0l].datum = 0`, …), which are
        // no writes of the user's (a write of a constant element later on the same line is
        // not shown either; its line is).
        let mut symbolic: Option<(u32, String)> = None;
        // Calls into a function the program does not define, not yet returned from.
        let mut library_depth = 0usize;
        for s in &report.trace[start + 1..end] {
            if library_depth > 0 {
                // The call's parameter bindings are inside it too.
                in_call = false;
                match s.kind.as_str() {
                    "function-call" => library_depth += 1,
                    "function-return" => library_depth -= 1,
                    _ => {}
                }
                continue;
            }
            if s.kind == "function-call"
                && s.callee.as_deref().is_some_and(|c| !defined.contains(c))
            {
                library_depth = 1;
            }
            if s.kind != "assignment" {
                in_call = false;
            }
            if s.hidden || s.is_internal() || in_call {
                continue;
            }
            if s.kind == "function-call" {
                in_call = true;
            }
            // Only lines of the sequential program that came from the user's source are the
            // user's code: steps inside the model, in generated code or in CBMC's own
            // library (`malloc`) are shown as the call that led there.
            let Some(span) = user_span(report, s) else {
                continue;
            };
            let loc = parsed.map.lookup(span.start);
            let pos = position(&loc);
            // A step runs its line (also an assignment of a temporary of the user's
            // expression); only the user's own variables and calls are shown as steps.
            let what = match s.kind.as_str() {
                "assignment" => match (&s.lhs, &s.value) {
                    // The race found: its line is the second access's, which runs even
                    // when it assigns nothing of the user's (`if (lvl < level) return;`).
                    (Some(l), Some(_)) if l == abi::DRD => None,
                    (Some(l), Some(_)) if names::is_internal(l) || l.contains('$') => continue,
                    (Some(l), Some(_))
                        if symbolic.as_ref().is_some_and(|(line, base)| {
                            *line == pos.line && constant_element_of(l, base)
                        }) =>
                    {
                        continue
                    }
                    (Some(l), Some(v)) if is_user_variable(l) => Some(match v.as_str() {
                        // CBMC could not show the value (a pointer into an array, …).
                        "unknown" => format!("{} assigned", user_text(l)),
                        v => format!("{} = {}", user_text(l), user_text(v)),
                    }),
                    (Some(_), Some(_)) => None,
                    _ => continue,
                },
                "function-call" => match s.callee.as_deref() {
                    Some(c) => Some(format!("call {}", abi::modelled_function(c))),
                    None => continue,
                },
                _ => continue,
            };
            if s.kind == "assignment" {
                if let Some(base) = s.lhs.as_deref().and_then(symbolic_index_base) {
                    symbolic = Some((pos.line, base.to_string()));
                }
            }
            if lines.last().map(|l| l.line) != Some(pos.line) {
                lines.push(Position {
                    column: 1,
                    ..pos.clone()
                });
            }
            if let Some(what) = what {
                steps.push(StepInfo { pos, what });
            }
        }
        if lines.is_empty() {
            continue;
        }
        out.push(Context {
            index: out.len() + 1,
            round,
            thread: thread(report, parsed, k),
            lines,
            steps,
            end_step: end,
        });
    }
    out
}

/// The span in the user's source behind a step: its line of the sequential program
/// (1-based) came from the user's text (not from the model, generated code or another file).
fn user_span(report: &Report, s: &Step) -> Option<Span> {
    let file = Path::new(s.file.as_deref()?).file_name()?;
    if file != SEQ_FILE {
        return None;
    }
    let line = s.line? as usize;
    let span = report.origins.get(line.checked_sub(1)?)?.source()?;
    (span.end > span.start).then_some(span)
}

/// `a` of an lvalue `a[e]…` whose index `e` is no number (`a[(signed long int)i].datum`).
fn symbolic_index_base(lhs: &str) -> Option<&str> {
    let (base, rest) = lhs.split_once('[')?;
    let index = &rest[..rest.find(']')?];
    (!is_number(index) && !base.is_empty()).then_some(base)
}

/// Is `lhs` an element of `base` at a constant index, or a part of one (`a[0l].m.__lock`)?
fn constant_element_of(lhs: &str, base: &str) -> bool {
    lhs.strip_prefix(base)
        .and_then(|r| r.strip_prefix('['))
        .and_then(|r| r.split_once(']'))
        .is_some_and(|(i, _)| is_number(i))
}

/// An integer literal as CBMC prints an index (`0l`, `12ul`).
fn is_number(text: &str) -> bool {
    let digits = text.trim_end_matches(['l', 'L', 'u', 'U']);
    !digits.is_empty() && digits.chars().all(|c| c.is_ascii_digit())
}

/// CBMC's struct values list the padding members it inserted (`{ .a=0, .$pad1=0, .b=1 }`),
/// which are no members of the user's.
fn without_padding(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(i) = rest.find(".$pad") {
        out.push_str(&rest[..i]);
        let member = &rest[i..];
        rest = &member[member.find([',', '}']).unwrap_or(member.len())..];
        if let Some(r) = rest.strip_prefix(", ") {
            rest = r;
        } else if rest.starts_with('}') && out.ends_with(", ") {
            out.truncate(out.len() - 2);
            out.push(' ');
        }
    }
    out.push_str(rest);
    out
}

#[cfg(test)]
mod tests {
    use super::{identifiers, is_user_variable, user_text};

    #[test]
    fn elements_rewritten_after_a_symbolic_index() {
        use super::{constant_element_of, symbolic_index_base};
        assert_eq!(
            symbolic_index_base("a[(signed long int)i].datum"),
            Some("a")
        );
        assert_eq!(symbolic_index_base("a[1l].datum"), None);
        assert_eq!(symbolic_index_base("x"), None);
        assert!(constant_element_of("a[0l].m.__data.__lock", "a"));
        assert!(constant_element_of("a[0l]", "a"));
        assert!(!constant_element_of("ab[0l]", "a"));
        assert!(!constant_element_of("a[(signed long int)i]", "a"));
    }

    #[test]
    fn padding_is_no_member() {
        assert_eq!(
            user_text("{ .datum=0, .$pad1=0, .m=union }"),
            "{ .datum=0, .m=union }"
        );
        assert_eq!(user_text("{ .a=1, .$pad2=0 }"), "{ .a=1 }");
        assert_eq!(user_text("{ .$pad0=0, .a=1 }"), "{ .a=1 }");
    }

    #[test]
    fn user_text_uses_the_user_names() {
        assert_eq!(user_text("&__ladr_219_pool"), "&pool");
        assert_eq!(user_text("__ladr_3_a[1l]"), "a[1l]");
        assert_eq!(user_text("x!0@1 + 4"), "x + 4");
        assert_eq!(user_text("NULL"), "NULL");
        assert_eq!(user_text("&dynamic_object$0"), "&(heap object 0)");
        assert_eq!(user_text("dynamic_object.a"), "(heap object).a");
        assert_eq!(user_text("&__ladr_argv"), "&(the command-line arguments)");
        assert!(is_user_variable("count"));
        assert!(is_user_variable("__ladr_12_count"));
        assert!(!is_user_variable("__ladr_t19"));
        assert!(!is_user_variable("tmp_if_expr"));
        assert!(!is_user_variable("tmp_if_expr$1"));
        assert!(!is_user_variable("__ladr_pc[1l]"));
        assert!(!is_user_variable("return_value___ladr_pthread_mutex_lock"));
    }

    #[test]
    fn identifiers_skip_member_names() {
        assert_eq!(identifiers("buf[i].len"), vec!["buf", "i"]);
        assert_eq!(identifiers("p->next->v"), vec!["p"]);
        assert_eq!(identifiers("*q"), vec!["q"]);
    }
}
