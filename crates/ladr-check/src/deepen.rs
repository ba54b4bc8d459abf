//! The search over bounds around the executor of `parallel`: the deepening schedule
//! ([`deepening_bounds`]), the constant-loop probe ([`probe_start`]), the vacuity of a "no
//! race" ([`mark_vacuity`]) and the search for more races after the first
//! ([`more_races`]).

use crate::single::{
    read_outcome, run_cbmc, run_cbmc_process, translate_seq, Finding, Report, Translated,
};
use crate::Phase;
use ladr_c::diag::{Error, Result};
use ladr_c::frontend::Parsed;
use ladr_c::print::print_unit;
use ladr_c::trees::drop_in_background;
use ladr_cbmc as cbmc;
use ladr_ir::program::{AccessKey, Options, Program};
use ladr_seq::pipeline::{translate, PassId, Stage};
use std::path::Path;
use std::time::{Duration, Instant};

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
        // Cut, as the probe's answer says: not run as one iteration (`unwind::sample`).
        sample_loops: false,
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
    let share = deadline.saturating_duration_since(Instant::now()) / PROBE_SHARE;
    probe_cbmc(
        parsed,
        t,
        bounds,
        &cbmc_opts.for_at_most(share),
        keep,
        progress,
    )
}

/// A probe's CBMC run on its program `t` at `bounds` (`cbmc_opts` with the probe's share
/// of the time), and its report; `None` when no time is left or CBMC fails to run.
fn probe_cbmc(
    parsed: &Parsed,
    t: Translated,
    bounds: Options,
    cbmc_opts: &cbmc::Options,
    keep: Option<&Path>,
    progress: &mut dyn FnMut(Phase, &Options),
) -> Option<(Report, Options)> {
    if cbmc_opts.deadline.is_some_and(|d| d <= Instant::now()) {
        return None;
    }
    progress(Phase::Cbmc, &bounds);
    let outcome = run_cbmc(&t, cbmc_opts, keep).ok()?;
    Some((read_outcome(parsed, t, outcome), bounds))
}

/// What the constant-loop probe leaves for the schedule after it ([`probe_start`]).
pub(crate) struct ProbeStart {
    /// The first bound pair's program, translated for the probe's size test, and how long
    /// that took: the schedule checks it next, without translating it again.
    pub first: (Program, Duration),
    /// The probe's race and its bounds: the answer (the first pair's translation is part
    /// of what it cost).
    pub race: Option<(Report, Options)>,
    /// The probe's translation and CBMC time when it found no race (they count in the
    /// answer's).
    pub spent: (Duration, Duration),
    /// The probe's "no race", the answer when the first pair gives none
    /// ([`probe_fallback`]).
    pub fallback: Option<(Report, Options)>,
}

/// The start of every deepening: the constant-loop probe
/// ([`probe`]) when [`probes`] says it runs (`None` when not), with the first bound pair
/// translated for its size test.
pub(crate) fn probe_start(
    parsed: &Parsed,
    opts: &Options,
    steps: u32,
    cbmc_opts: &cbmc::Options,
    keep: Option<&Path>,
    deadline: Option<Instant>,
    progress: &mut dyn FnMut(Phase, &Options),
) -> Result<Option<ProbeStart>> {
    if !probes(opts, steps, deadline) {
        return Ok(None);
    }
    progress(Phase::Translating, opts);
    let t0 = Instant::now();
    let full = translate(parsed.unit.clone(), opts, Stage::Seq, |_, _| {})?;
    let mut start = ProbeStart {
        first: (full, t0.elapsed()),
        race: None,
        spent: (Duration::ZERO, Duration::ZERO),
        fallback: None,
    };
    let probed = probe(
        parsed,
        opts,
        &start.first.0,
        cbmc_opts,
        keep,
        deadline,
        progress,
    );
    if let Some((report, at)) = probed {
        if matches!(report.verdict, Finding::Race { .. }) {
            start.race = Some((report, at));
            return Ok(Some(start));
        }
        start.spent = (report.stats.translate, report.stats.cbmc);
        let (kept, vacuity) = probe_fallback(parsed, report, at, cbmc_opts, deadline);
        start.spent.1 += vacuity;
        start.fallback = kept;
    }
    // The prefix probes together get 1/PROBE_SHARE of the time left, the smaller first.
    let until = deadline
        .map(|d| Instant::now() + d.saturating_duration_since(Instant::now()) / PROBE_SHARE);
    for n in PREFIXES {
        let prefixed = prefix_probe(
            parsed,
            opts,
            n,
            &start.first.0,
            cbmc_opts,
            keep,
            until,
            progress,
        );
        let Some((report, at)) = prefixed else {
            break;
        };
        if matches!(report.verdict, Finding::Race { .. }) {
            start.race = Some((report, at));
            return Ok(Some(start));
        }
        start.spent.0 += report.stats.translate;
        start.spent.1 += report.stats.cbmc;
    }
    Ok(Some(start))
}

/// The prefix probe's bounds, tried in this order ([`prefix_probe`]): the visible
/// statements each slot runs at most. The formula grows fast with them (pclsync's timer
/// thread: CBMC 4 s at 12, 12 s at 16, 95 s at 24), so small ones go first.
pub const PREFIXES: [u32; 3] = [8, 16, 32];

/// The prefix probe of bound `n` runs only when some slot of the first bound pair's
/// program has at least this many times `n` visible statements.
pub const PREFIX_RATIO: u32 = 4;

/// The prefix probes run only on a first bound pair of at least this many visible
/// statements: below, CBMC mostly answers the whole pair within the time the probes
/// would take (SV-COMP at `--timeout 20`, 2 jobs: with the probes on every program they
/// cost reorder_c11_bad-50, 259 visible statements, and workstealqueue_mutex-1, 424,
/// their races; the real harnesses they answer have 561 to 3,691).
pub const PREFIX_MIN_PROGRAM: u32 = 500;

/// The prefix probe: the first bound pair's bounds with each slot cut after its first `n`
/// visible statements (`Options::prefix`: the thread then waits for ever), when some slot
/// is much longer ([`PREFIX_RATIO`]) in a large program ([`PREFIX_MIN_PROGRAM`]);
/// [`probe_start`] tries each of [`PREFIXES`] until one finds a race. A race there is a race of the program: its execution is one of the
/// program's, cut short (no thread ends early, so no join returns early). "No race" there
/// says nothing: only a race is an answer. Why: a real library's thread races at its first
/// calls (a lazily initialised table, a counter, a cached clock), while the rest of the
/// thread's code (list walks, error paths, inlined and unwound) makes a formula CBMC does
/// not build within minutes. It runs until `deadline` ([`probe_start`] gives all of them
/// together 1/[`PROBE_SHARE`] of the time left, as the constant-loop probe gets). `None`
/// when it does not run, its translation fails or the time is up. `keep` keeps its files.
#[allow(clippy::too_many_arguments)]
pub fn prefix_probe(
    parsed: &Parsed,
    opts: &Options,
    n: u32,
    full: &Program,
    cbmc_opts: &cbmc::Options,
    keep: Option<&Path>,
    deadline: Option<Instant>,
    progress: &mut dyn FnMut(Phase, &Options),
) -> Option<(Report, Options)> {
    let deadline = deadline?;
    let longest = full.code.iter().map(|c| c.size).max().unwrap_or(0);
    if longest < n * PREFIX_RATIO || full.visible_statements() < PREFIX_MIN_PROGRAM {
        return None;
    }
    let bounds = Options {
        prefix: Some(n),
        ..opts.clone()
    };
    progress(Phase::Translating, &bounds);
    let t = translate_seq(parsed, &bounds).ok()?;
    let share = deadline.saturating_duration_since(Instant::now());
    probe_cbmc(
        parsed,
        t,
        bounds,
        &cbmc_opts.for_at_most(share),
        keep,
        progress,
    )
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
    if !matches!(report.verdict, Finding::NoRace) || share.is_zero() {
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
        (Finding::Unknown { reason }, Some((mut r, b))) => {
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

/// Deepening goes on while a "no race" is vacuous, with a time limit, up to this many
/// steps (past `--deepen-steps`).
pub const MAX_DEEPENING_STEPS: u32 = 100;

/// The deepening steps of a check (`ladr FILE`, the gate) unless asked otherwise: from 2/2
/// up to 3/4 (3/2, 3/3, 3/4). No race of SV-COMP's 93 racy tasks needed more (88 at 2/2, 4
/// at 3/2, 1 at 3/4), nor any of the real fixed races (all at 2/2 or 3/2); the pairs after
/// 3/4 (4/2, 4/4, 5/4) took most of a race-free real harness's time (openwsman's fixed
/// side: 3/4 finished at 86 s, 5/4 at 216 s). A "no race" says the bounds it holds for.
pub const DEEPEN_STEPS: u32 = 3;

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
    let t0 = Instant::now();
    let unit = parsed.unit.clone();
    let query_of = move || {
        let mut creates = false;
        let program = translate(unit, &query, Stage::Seq, |pass, p| {
            if pass == PassId::Inline {
                creates = p.unit.0.iter().any(|ext| match &ext.node {
                    lang_c::ast::ExternalDeclaration::FunctionDefinition(f) => {
                        ladr_c::syntax::walk::mentions(&f.node.statement, &["pthread_create"])
                    }
                    _ => false,
                });
            }
        });
        program.map(|p| (p, creates))
    };
    // The query's translation counts in its share of the time too: at a large unwinding it
    // can take longer than its CBMC run (cmap's set-up loops at 64 unwindings).
    let translated = match cbmc_opts.deadline {
        Some(deadline) => match crate::until(deadline, None, query_of) {
            crate::Waited::Done(t) => t,
            crate::Waited::Stopped | crate::Waited::Failed => return None,
        },
        None => query_of(),
    };
    let (program, creates) = translated.ok()?;
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

/// The largest unwinding [`unwind_past_vacuity`] tries.
pub const MAX_VACUITY_UNWIND: u32 = 64;

/// The least unwinding above `at.unwind` at which some execution creates a thread
/// ([`vacuity`] says not vacuous), at `at`'s other bounds: doubled until the vacuity query
/// finds one (up to [`MAX_VACUITY_UNWIND`]), then narrowed by bisection. Vacuity depends on
/// the unwinding alone (no thread runs before `main` creates the first, so rounds do not
/// matter): a loop before the first `pthread_create` longer than the unwinding (a key of
/// nine characters lowercased in `main`) needs no deeper rounds, only these cheap queries,
/// each with at most 1/[`PROBE_SHARE`] of the time left. `None` when no unwinding up to the
/// largest is found, or a query gives no answer, or the time is up.
pub fn unwind_past_vacuity(
    parsed: &Parsed,
    at: &Options,
    cbmc_opts: &cbmc::Options,
    deadline: Instant,
) -> Option<Options> {
    let creates = |unwind: u32| {
        let share = deadline.saturating_duration_since(Instant::now()) / PROBE_SHARE;
        if share.is_zero() {
            return None;
        }
        let bounds = Options {
            unwind,
            ..at.clone()
        };
        vacuity(parsed, &bounds, &cbmc_opts.for_at_most(share)).map(|vacuous| !vacuous)
    };
    let (mut vacuous, mut found) = (at.unwind, at.unwind.max(1) * 2);
    while !creates(found)? {
        if found >= MAX_VACUITY_UNWIND {
            return None;
        }
        vacuous = found;
        found = (found * 2).min(MAX_VACUITY_UNWIND);
    }
    while found - vacuous > 1 {
        let middle = vacuous + (found - vacuous) / 2;
        if creates(middle)? {
            found = middle;
        } else {
            vacuous = middle;
        }
    }
    Some(Options {
        unwind: found,
        ..at.clone()
    })
}

/// How long a vacuity query may run after the deadline (or with less time left): a "no
/// race" whose vacuity is not known is no answer, and the last pair of a deepening
/// stopped by the deadline would otherwise never be asked.
pub const VACUITY_GRACE: Duration = Duration::from_secs(5);

/// Sets `report.vacuous` for a "no race" at `bounds` ([`vacuity`]), with CBMC stopped at
/// `deadline` or after [`VACUITY_GRACE`]; an unanswered query sets
/// `report.vacuity_unanswered` (the answer is then unknown: a "no race" at bounds no
/// execution of which creates a thread was a `true` in SV-COMP mode).
pub fn mark_vacuity(
    parsed: &Parsed,
    report: &mut Report,
    bounds: &Options,
    cbmc_opts: &cbmc::Options,
    deadline: Option<Instant>,
) {
    if !matches!(report.verdict, Finding::NoRace) {
        return;
    }
    let c = match deadline {
        Some(d) if d.saturating_duration_since(Instant::now()) < VACUITY_GRACE => {
            cbmc_opts.for_at_most(VACUITY_GRACE)
        }
        Some(d) => cbmc_opts.until(d, Duration::ZERO),
        None => cbmc_opts.clone(),
    };
    let t0 = Instant::now();
    let vacuous = vacuity(parsed, bounds, &c);
    report.vacuous = vacuous == Some(true);
    report.vacuity_unanswered = vacuous.is_none();
    report.stats.cbmc += t0.elapsed();
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

/// The races of a check ([`crate::check`]).
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
            .filter(|r| matches!(r.verdict, Finding::Race { .. }))
    }
}

/// The pair of accesses of a race, as `Options::exclude` names it.
pub fn race_pair(v: &Finding) -> Option<[AccessKey; 2]> {
    match v {
        Finding::Race { first, second } => Some([first.site.span.into(), second.site.span.into()]),
        _ => None,
    }
}

/// The search for more races after the first check: `first` (its report, at `bounds`),
/// then, after a race and while fewer than `max_races` (`None`: no limit) were found and
/// time is left before `deadline`, again at the bounds of that race with every pair found
/// so far excluded (`Options::exclude`), until a check finds no race or gives no answer.
/// Each pair of access sites is reported once, with its own interleaving.
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
    if let Finding::Unknown { reason } = &first.verdict {
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
            Finding::NoRace => end = SearchEnd::AllFound,
            Finding::Unknown { reason } => {
                end = SearchEnd::Stopped {
                    reason: reason.clone(),
                }
            }
            Finding::Race { .. } => {
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
