//! All cores in one check (`--jobs N`, `--swarm N`): the bound pairs of the deepening
//! schedule ([`deepening_bounds`](crate::deepening_bounds)), each split into swarm
//! instances (`ladr_seq::swarm`), run at the same time, each its own CBMC process.
//!
//! ```text
//! units (step, instance), step-major ─ N worker threads take the next unit ─ translate the
//! step once (shared) ─ restrict to the instance ─ print ─ CBMC (cancellable)
//! ```
//!
//! The race of the earliest unit wins, whatever the jobs count (the same answer every run):
//! a race sets the cancel flags of every unit after it, which kills their CBMCs
//! (`ladr_cbmc::Options::cancel`) and keeps workers from starting them; the units before it
//! run on, and a race one of them finds replaces it. Without a
//! race, a bound pair has "no race" only when every one of its instances answered "no
//! race"; the answer is the deepest bound pair of the longest prefix of the schedule that
//! finished so ("no race at (4,2)" says nothing about (3,3), which may not have finished),
//! and [`Deepening`] lists what every bound pair gave. The deadline covers everything:
//! every CBMC is stopped at it. Memory: each worker runs at most one CBMC at a time, so at
//! most N run at once ([`Plan::default_jobs`] also bounds N by the free memory).
//!
//! Threads come from `std::thread::scope`; the work list is a counter over a fixed vector
//! of units, so no scheduler of our own is involved.

mod vacuous;

use crate::{
    deepening_bounds, keep_files, mark_vacuity, more_races, read_outcome, run_cbmc, vacuity,
    Finding, Phase, Progress, Races, Report, Request, Translated, Waited, MAX_DEEPENING_STEPS,
};
use ladr_c::diag::{Error, ErrorKind, Result};
use ladr_c::frontend::Parsed;
use ladr_c::print::print_unit;
use ladr_cbmc as cbmc;
use ladr_ir::program::{Options, Program};
use ladr_seq::pipeline::{translate, Stage};
use ladr_seq::swarm;
use lang_c::ast::TranslationUnit;
use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::{Duration, Instant};
use vacuous::{deepen_while_vacuous, past_vacuity};

/// How one check uses the machine.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Plan {
    /// CBMC processes at most at once (at least 1).
    pub jobs: usize,
    /// Swarm instances per bound pair (1: no split; capped at the pair's contexts).
    pub swarm: u32,
}

/// Roughly the most memory one CBMC of an ordinary check takes: the default `--jobs` runs
/// no more CBMCs at once than the free memory holds at this size each.
pub const MEMORY_PER_JOB: u64 = 1 << 30;

impl Plan {
    /// The default `--jobs`: the cores, but no more than the available memory
    /// (`MemAvailable` of `/proc/meminfo`) holds at [`MEMORY_PER_JOB`] each; at least 1.
    pub fn default_jobs() -> usize {
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
        cores
            .min(available_memory().map_or(usize::MAX, jobs_in))
            .max(1)
    }

    /// An explicit `--jobs asked`, capped by the rule of [`Plan::default_jobs`] for memory
    /// (an explicit `--jobs 64` on a small machine ran 64 CBMCs, and every one timed out):
    /// the jobs to run and, when capped, a one-line note saying so and why.
    pub fn capped_jobs(asked: usize) -> (usize, Option<String>) {
        cap_jobs(asked, available_memory())
    }
}

/// `MemAvailable` of `/proc/meminfo` in bytes, if known.
fn available_memory() -> Option<u64> {
    cbmc::memory::meminfo("MemAvailable:")
}

/// How many CBMCs `bytes` of memory hold at [`MEMORY_PER_JOB`] each.
fn jobs_in(bytes: u64) -> usize {
    usize::try_from(bytes / MEMORY_PER_JOB).unwrap_or(usize::MAX)
}

/// [`Plan::capped_jobs`] with `available` bytes of memory (`None`: unknown, no cap).
pub(crate) fn cap_jobs(asked: usize, available: Option<u64>) -> (usize, Option<String>) {
    let Some(bytes) = available else {
        return (asked.max(1), None);
    };
    let most = jobs_in(bytes).max(1);
    if asked <= most {
        return (asked.max(1), None);
    }
    let note = format!(
        "note: --jobs {asked} capped to {most}: the available memory ({:.1} GiB) holds {most} \
         CBMC run{} at about {} GiB each",
        bytes as f64 / (1u64 << 30) as f64,
        if most == 1 { "" } else { "s" },
        MEMORY_PER_JOB >> 30
    );
    (most, Some(note))
}

/// What one bound pair of the schedule gave.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum StepState {
    /// Every instance finished with "no race".
    NoRace,
    /// An instance found a race.
    Race,
    /// Some instance gave no answer (the reason), or was stopped after a race elsewhere.
    Unfinished(String),
    /// Not started (a race was found first, or the time ran out).
    NotStarted,
}

/// What every bound pair of the deepening schedule gave.
#[derive(Clone, Debug, Default)]
pub struct Deepening {
    /// Each bound pair (rounds, unwinding) in schedule order, with its state.
    pub steps: Vec<((u32, u32), StepState)>,
    /// Instances each bound pair was split into (1: none).
    pub instances: Vec<u32>,
    /// The answer is the constant-loop probe's ([`probe`](crate::probe)), at the first
    /// pair's bounds with loops of a constant bound cut after `unwind` iterations: a race,
    /// or the "no race" given when the first pair gave no answer
    /// ([`probe_fallback`](crate::probe_fallback)).
    pub probe: bool,
    /// Per bound pair (where known), when its last instance gave its answer: how long a
    /// user waited for each bound's answer.
    pub done_at: Vec<Option<Instant>>,
    /// Per bound pair (where known): the earlier pair whose sequential program this one's
    /// is, byte for byte (nothing depended on the larger unwinding), so its answer is that
    /// pair's and CBMC did not check it again.
    pub same_as: Vec<Option<(u32, u32)>>,
}

impl Deepening {
    /// The bound pairs that finished with "no race".
    pub fn finished(&self) -> Vec<(u32, u32)> {
        self.steps
            .iter()
            .filter(|(_, s)| *s == StepState::NoRace)
            .map(|(b, _)| *b)
            .collect()
    }

    /// The length of the longest prefix of the schedule all of which finished "no race".
    pub fn prefix(&self) -> usize {
        self.steps
            .iter()
            .take_while(|(_, s)| *s == StepState::NoRace)
            .count()
    }

    /// The schedule of a deepening that ended at `bounds` with the bound pairs run in order
    /// (all steps before it finished "no race"; past `steps` when a vacuous "no race" made
    /// it go on): what the probe's race stands for.
    pub(crate) fn sequential(
        opts: &Options,
        steps: u32,
        bounds: &Options,
        verdict: &Finding,
    ) -> Self {
        let mut out = Deepening {
            probe: crate::is_probe(opts, bounds),
            ..Deepening::default()
        };
        out.extend(opts, 0, steps, bounds, verdict);
        out
    }

    /// Appends the steps `from`… of a deepening in order that ended at `bounds` (see
    /// [`Deepening::sequential`]).
    fn extend(
        &mut self,
        opts: &Options,
        from: u32,
        steps: u32,
        bounds: &Options,
        verdict: &Finding,
    ) {
        let out = self;
        let mut reached = false;
        let reaches = (from..=MAX_DEEPENING_STEPS.max(steps)).any(|k| {
            let b = deepening_bounds(opts, k);
            (b.rounds, b.unwind) == (bounds.rounds, bounds.unwind)
        });
        for k in from.. {
            if k > steps && (reached || !reaches) {
                break;
            }
            let b = deepening_bounds(opts, k);
            let here = (b.rounds, b.unwind) == (bounds.rounds, bounds.unwind);
            let state = if reached {
                StepState::NotStarted
            } else if here {
                reached = true;
                match verdict {
                    Finding::NoRace => StepState::NoRace,
                    Finding::Race { .. } => StepState::Race,
                    Finding::Unknown { reason } => StepState::Unfinished(reason.clone()),
                }
            } else {
                StepState::NoRace
            };
            out.steps.push(((b.rounds, b.unwind), state));
            out.instances.push(1);
            if steps == 0 && reached {
                break;
            }
        }
    }
}

/// How the reason of a CBMC run that crashed starts (`ladr_cbmc`'s message).
const CRASHED: &str = "CBMC crashed";

/// One CBMC run's result, kept until the answer is known.
struct Done {
    report: Report,
    seq: String,
    outcome: cbmc::Outcome,
}

/// The shared state of the workers.
#[derive(Default)]
struct Board {
    /// Per step, per instance: `Some(verdict kind)` once answered.
    answers: Vec<Vec<Option<StepState>>>,
    /// Per step: a "no race" report (for the answer) and the first unknown one.
    no_race: Vec<Option<Done>>,
    unknown: Vec<Option<Done>>,
    /// The race of the earliest unit (in work-list order) that found one, with its unit.
    race: Option<(usize, Done)>,
    /// The first translation error, per step.
    errors: Vec<Option<Error>>,
    /// Per step: when an instance of it last answered.
    done_at: Vec<Option<Instant>>,
    /// Each sequential program checked, with the first unit that checks it.
    texts: HashMap<String, usize>,
    /// Per unit: the earlier unit whose sequential program is this one's, byte for byte
    /// (the unwinding grew, but nothing depended on it): its answer is this one's, and
    /// CBMC does not check the same program twice ([`Executor::twin`]).
    twin_of: Vec<Option<usize>>,
    translate: Duration,
    cbmc: Duration,
}

/// A step's translation, shared by its instances.
type Shared = OnceLock<std::result::Result<(Program, Duration), Error>>;

/// The sequential program of `unit` at `bounds`, with how long translating it took.
fn timed_translation(
    unit: TranslationUnit,
    bounds: &Options,
) -> std::result::Result<(Program, Duration), Error> {
    let t0 = Instant::now();
    let p = translate(unit, bounds, Stage::Seq, |_, _| {})?;
    Ok((p, t0.elapsed()))
}

/// [`timed_translation`] that gives up at `deadline` or when `cancel` is set
/// ([`crate::until`]). A large program's deeper bounds take long to translate (word-count.c
/// of sysprog21/concurrent-programs: 15 s and 3 GB at 4 unwindings), and a worker waiting
/// for that kept the answer past the time limit.
fn translation_until(
    parsed: &Parsed,
    bounds: &Options,
    deadline: Option<Instant>,
    cancel: &AtomicBool,
) -> std::result::Result<(Program, Duration), Error> {
    let Some(deadline) = deadline else {
        return timed_translation(parsed.unit.clone(), bounds);
    };
    let (unit, opts) = (parsed.unit.clone(), bounds.clone());
    match crate::until(deadline, Some(cancel), move || {
        timed_translation(unit, &opts)
    }) {
        Waited::Done(translated) => translated,
        Waited::Stopped => Err(Error::new(
            ErrorKind::Backend,
            format!(
                "the time limit was reached in ladr's translation at {} rounds and {} \
                 unwindings; may help: a smaller --unwind or --max-unwind (each unwinding \
                 copies the loops' bodies)",
                bounds.rounds, bounds.unwind
            ),
        )),
        Waited::Failed => Err(Error::new(
            ErrorKind::Internal,
            "internal error: the translation failed",
        )),
    }
}

/// The bound pairs of one parallel check, each split into swarm instances, and the workers'
/// shared state.
struct Executor<'a> {
    parsed: &'a Parsed,
    cbmc_opts: &'a cbmc::Options,
    deadline: Option<Instant>,
    progress: &'a dyn Progress,
    /// The schedule's bound pairs.
    bounds: Vec<Options>,
    /// Instances wanted per bound pair.
    wanted: u32,
    /// Every (step, instance), step-major: the work list.
    units: Vec<(usize, u32)>,
    /// Per step, its translation (shared by its instances).
    shared: Vec<Shared>,
    /// The next unit to take.
    next: AtomicUsize,
    /// Per unit, set when its answer cannot matter any more: a race of an earlier unit is
    /// the answer (every later unit is stopped, the earlier ones run on, so that the race
    /// reported is that of the earliest unit whatever the jobs count), or a CBMC crash
    /// repeated (every unit is stopped).
    cancel: Vec<Arc<AtomicBool>>,
    board: Mutex<Board>,
    /// The vacuity of the first bound pair's unwinding, asked by the worker that sees it
    /// answer "no race" first ([`Executor::ask_vacuity`]): `Some(None)` once taken, then
    /// what the query said.
    vacuity: Mutex<Option<Option<bool>>>,
    /// Set by a race: stops that query's CBMC (the race is the answer).
    vacuity_cancel: Arc<AtomicBool>,
}

impl<'a> Executor<'a> {
    /// The executor of `bounds` (each split into the request's swarm instances), with the
    /// probe's times (`probed`) and the first pair's program when the probe translated it.
    fn new(
        parsed: &'a Parsed,
        request: &'a Request,
        progress: &'a dyn Progress,
        bounds: Vec<Options>,
        probed: (Duration, Duration),
        first: Option<(Program, Duration)>,
    ) -> Executor<'a> {
        let n_steps = bounds.len();
        let wanted = request.plan.swarm.max(1);
        let shared: Vec<Shared> = (0..n_steps).map(|_| OnceLock::new()).collect();
        let n_units = n_steps * wanted as usize;
        if let Some(t) = first {
            let _ = shared[0].set(Ok(t));
        }
        Executor {
            parsed,
            cbmc_opts: &request.cbmc,
            deadline: request.deadline,
            progress,
            units: (0..n_steps)
                .flat_map(|s| (0..wanted).map(move |i| (s, i)))
                .collect(),
            bounds,
            wanted,
            shared,
            next: AtomicUsize::new(0),
            cancel: (0..n_units)
                .map(|_| Arc::new(AtomicBool::new(false)))
                .collect(),
            board: Mutex::new(Board {
                answers: vec![vec![None; wanted as usize]; n_steps],
                no_race: (0..n_steps).map(|_| None).collect(),
                unknown: (0..n_steps).map(|_| None).collect(),
                errors: (0..n_steps).map(|_| None).collect(),
                done_at: vec![None; n_steps],
                twin_of: vec![None; n_units],
                translate: probed.0,
                cbmc: probed.1,
                ..Board::default()
            }),
            vacuity: Mutex::new(None),
            vacuity_cancel: Arc::new(AtomicBool::new(false)),
        }
    }
}

impl Executor<'_> {
    fn lock(&self) -> std::sync::MutexGuard<'_, Board> {
        self.board.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The instances step `s`'s program is split into.
    fn instances(&self, p: &Program, s: usize) -> u32 {
        swarm::instances(p, self.bounds[s].rounds, self.wanted)
    }

    /// A worker: takes units until none is left or the time is up; a unit stopped before it
    /// started is passed over.
    fn work(&self) {
        loop {
            if self.deadline.is_some_and(|d| Instant::now() >= d) {
                return;
            }
            self.ask_vacuity();
            let u = self.next.fetch_add(1, Ordering::SeqCst);
            let Some(&(s, i)) = self.units.get(u) else {
                return;
            };
            if !self.cancel[u].load(Ordering::SeqCst) {
                self.run_unit(s, i);
            }
        }
    }

    /// Asks the vacuity query ([`vacuity`]) of the first bound pair once, as soon as it
    /// answered "no race" and no race is known, while the later pairs run: vacuity depends on
    /// the unwinding alone and only grows smaller with it (every execution within U
    /// unwindings is one within more), so a "not vacuous" there holds for every later pair
    /// ([`Executor::known_vacuity`]). The answer's own query came after the last pair, when a
    /// time limit often left it no time (capstone's fixed side: "no race" at 3/2 unknown).
    /// Only with a time limit and a schedule of more than one pair; a race found meanwhile
    /// stops its CBMC.
    fn ask_vacuity(&self) {
        let Some(deadline) = self.deadline.filter(|_| self.bounds.len() >= 2) else {
            return;
        };
        {
            let b = self.lock();
            if b.no_race[0].is_none() || b.race.is_some() {
                return;
            }
            let mut v = self.vacuity.lock().unwrap_or_else(|e| e.into_inner());
            if v.is_some() {
                return;
            }
            *v = Some(None);
        }
        let mut c = self.cbmc_opts.until(deadline, Duration::ZERO);
        c.cancel = Some(self.vacuity_cancel.clone());
        let t0 = Instant::now();
        let vacuous = vacuity(self.parsed, &self.bounds[0], &c);
        self.lock().cbmc += t0.elapsed();
        *self.vacuity.lock().unwrap_or_else(|e| e.into_inner()) = Some(vacuous);
    }

    /// The vacuity of a "no race" at step `s` as far as [`Executor::ask_vacuity`] knows it:
    /// not vacuous at any unwinding from the first pair's on once the first pair's is not;
    /// vacuous at the first pair's unwinding when its query said so.
    fn known_vacuity(&self, s: usize) -> Option<bool> {
        let v = (*self.vacuity.lock().unwrap_or_else(|e| e.into_inner()))??;
        let (first, at) = (self.bounds[0].unwind, self.bounds[s].unwind);
        match v {
            false if at >= first => Some(false),
            true if at == first => Some(true),
            _ => None,
        }
    }

    /// The index of instance `i` of step `s` in the work list.
    fn unit(&self, s: usize, i: u32) -> usize {
        s * self.wanted as usize + i as usize
    }

    /// Stops every unit from the `from`th of the work list on.
    fn cancel_from(&self, from: usize) {
        for flag in self.cancel.iter().skip(from) {
            flag.store(true, Ordering::SeqCst);
        }
    }

    /// Instance `i` of step `s`: translated (once per step), restricted, printed and checked.
    fn run_unit(&self, s: usize, i: u32) {
        // A step whose translation failed has no instances to run.
        if self.lock().errors[s].is_some() {
            return;
        }
        let translated = self.shared[s].get_or_init(|| {
            self.progress.phase(Phase::Translating, &self.bounds[s]);
            let cancel = &self.cancel[self.unit(s, i)];
            translation_until(self.parsed, &self.bounds[s], self.deadline, cancel)
        });
        let (program, time) = match translated {
            Ok(t) => t,
            Err(e) => {
                let mut b = self.lock();
                if b.errors[s].is_none() {
                    b.errors[s] = Some(e.clone());
                }
                return;
            }
        };
        let n = self.instances(program, s);
        if i >= n {
            return;
        }
        let t1 = Instant::now();
        let program = if n > 1 {
            match swarm::restrict(program.clone(), self.bounds[s].rounds, n, i) {
                Ok(p) => p,
                Err(e) => {
                    self.lock().errors[s] = Some(e);
                    return;
                }
            }
        } else {
            program.clone()
        };
        let printed = print_unit(&program.unit);
        if self.twin(s, i, &printed.text) {
            return;
        }
        let t = Translated {
            program,
            printed,
            // The shared translation counts once, for instance 0.
            time: if i == 0 { *time } else { Duration::ZERO } + t1.elapsed(),
        };
        let mut c = match self.deadline {
            Some(d) => self.cbmc_opts.until(d, Duration::ZERO),
            None => self.cbmc_opts.clone(),
        };
        let cancel = &self.cancel[self.unit(s, i)];
        c.cancel = Some(cancel.clone());
        self.progress.phase(Phase::Cbmc, &self.bounds[s]);
        let p = &t.program;
        let size = (
            p.slots.len(),
            p.visible_statements() as usize,
            p.instrumented_accesses() as usize,
        );
        self.progress.size(&self.bounds[s], size.0, size.1, size.2);
        let seq = t.printed.text.clone();
        let outcome = match run_cbmc(&t, &c, None) {
            Ok(o) => o,
            Err(e) => {
                self.lock().errors[s] = Some(e);
                return;
            }
        };
        let stopped = cancel.load(Ordering::SeqCst);
        let report = read_outcome(self.parsed, t, outcome.clone());
        let done = Done {
            report,
            seq,
            outcome,
        };
        self.record(s, i, done, stopped);
    }

    /// Is instance `i` of step `s`, whose sequential program is `text`, the twin of an
    /// earlier unit that checks the same text? Then its answer will be that unit's
    /// ([`Executor::answer_twins`]) and it is not checked again. A deeper unwinding gives the
    /// same program when no loop or recursion depended on it (every loop's bound a constant
    /// unwound completely): 09-regions_19-nested_nr answered "no race" at 2/2 and 3/2 in
    /// SV-COMP's 20 s, but not at 3/3 and 3/4, the program of 3/2 again. The earlier unit
    /// is the one checked whichever worker printed first.
    fn twin(&self, s: usize, i: u32, text: &str) -> bool {
        let u = self.unit(s, i);
        let mut b = self.lock();
        match b.texts.get(text) {
            Some(&first) if first < u => {
                b.twin_of[u] = Some(first);
                true
            }
            Some(&later) if later > u => {
                // A later unit got here first (another worker): it is the twin, whatever
                // the timing, and its CBMC is stopped.
                b.twin_of[later] = Some(u);
                b.texts.insert(text.to_string(), u);
                self.cancel[later].store(true, Ordering::SeqCst);
                false
            }
            Some(_) => false,
            None => {
                b.texts.insert(text.to_string(), u);
                false
            }
        }
    }

    /// Gives each twin unit ([`Executor::twin`]) its earlier unit's answer, in work-list
    /// order (a twin's twin is answered before it), and its step the time of that answer.
    fn answer_twins(&self, b: &mut Board) {
        for u in 0..self.units.len() {
            let Some(first) = b.twin_of[u] else {
                continue;
            };
            let ((s, i), (s0, i0)) = (self.units[u], self.units[first]);
            let answer = b.answers[s0][i0 as usize].clone();
            b.answers[s][i as usize] = answer;
            b.done_at[s] = b.done_at[s].max(b.done_at[s0]);
        }
    }

    /// The bounds of the earlier step whose program step `s`'s is, when each of its `n`
    /// instances is a twin of that step's ([`Executor::twin`]).
    fn twin_step(&self, b: &Board, s: usize, n: u32) -> Option<(u32, u32)> {
        let steps: Vec<Option<usize>> = (0..n)
            .map(|i| b.twin_of[self.unit(s, i)].map(|u| self.units[u].0))
            .collect();
        match steps.first() {
            Some(&Some(s0)) if steps.iter().all(|&t| t == Some(s0)) => {
                Some((self.bounds[s0].rounds, self.bounds[s0].unwind))
            }
            _ => None,
        }
    }

    /// Records what instance `i` of step `s` gave (`stopped`: its cancel flag was set when
    /// its CBMC ended); a race stops the units after it, a crash that repeats every unit.
    fn record(&self, s: usize, i: u32, done: Done, stopped: bool) {
        let u = self.unit(s, i);
        let mut b = self.lock();
        b.done_at[s] = Some(Instant::now());
        b.translate += done.report.stats.translate;
        b.cbmc += done.report.stats.cbmc;
        let i = i as usize;
        match &done.report.verdict {
            Finding::Race { .. } => {
                b.answers[s][i] = Some(StepState::Race);
                self.vacuity_cancel.store(true, Ordering::SeqCst);
                if b.race.as_ref().is_none_or(|(first, _)| u < *first) {
                    self.cancel_from(u + 1);
                    b.race = Some((u, done));
                }
            }
            Finding::NoRace => {
                b.answers[s][i] = Some(StepState::NoRace);
                if b.no_race[s].is_none() {
                    b.no_race[s] = Some(done);
                }
            }
            Finding::Unknown { reason } => {
                let reason = if stopped && b.race.is_some() {
                    "stopped: a race was found".to_string()
                } else if stopped && !reason.starts_with(CRASHED) {
                    "stopped: CBMC crashed the same way at two bound pairs".to_string()
                } else {
                    reason.clone()
                };
                // A crash that repeats at another bound pair repeats at every one: the
                // others are not run.
                let repeated = reason.starts_with(CRASHED)
                    && b.answers
                        .iter()
                        .flatten()
                        .any(|a| matches!(a, Some(StepState::Unfinished(r)) if *r == reason));
                if repeated {
                    self.cancel_from(0);
                }
                b.answers[s][i] = Some(StepState::Unfinished(reason));
                if b.unknown[s].is_none() {
                    b.unknown[s] = Some(done);
                }
            }
        }
    }

    /// Runs the work list on `jobs` workers and reads what it gave: the board, what every
    /// bound pair gave, and the check whose report is the answer ([`Executor::answering`]).
    fn finish(&self, jobs: usize) -> (Board, Deepening, Result<(Done, usize)>) {
        self.run(jobs);
        let mut b = std::mem::take(&mut *self.lock());
        self.answer_twins(&mut b);
        let schedule = self.schedule(&b);
        let answer = self.answering(&mut b, schedule.prefix());
        (b, schedule, answer)
    }

    /// Runs the work list on `jobs` worker threads.
    fn run(&self, jobs: usize) {
        std::thread::scope(|scope| {
            for k in 0..jobs.max(1) {
                // The printer recurses as deep as the program nests: the check's stack.
                let spawned = std::thread::Builder::new()
                    .name(format!("worker {k}"))
                    .stack_size(crate::STACK)
                    .spawn_scoped(scope, || self.work());
                if spawned.is_err() && k == 0 {
                    self.work();
                }
            }
        });
    }

    /// What every bound pair gave, from the board after the workers ended. The pairs after
    /// the race's are "not started", whatever other workers did with them: the schedule
    /// reads the same with any jobs count.
    fn schedule(&self, b: &Board) -> Deepening {
        let mut deepening = Deepening::default();
        let race_step = b.race.as_ref().map(|(u, _)| u / self.wanted as usize);
        for s in 0..self.bounds.len() {
            if race_step.is_some_and(|r| s > r) {
                let b = &self.bounds[s];
                deepening
                    .steps
                    .push(((b.rounds, b.unwind), StepState::NotStarted));
                deepening.instances.push(1);
                deepening.done_at.push(None);
                deepening.same_as.push(None);
                continue;
            }
            let n = match self.shared[s].get() {
                Some(Ok((p, _))) => self.instances(p, s),
                _ => 1,
            };
            let answers = &b.answers[s][..n as usize];
            let state = if answers.contains(&Some(StepState::Race)) {
                StepState::Race
            } else if answers.iter().all(|a| *a == Some(StepState::NoRace)) {
                StepState::NoRace
            } else if let Some(e) = &b.errors[s] {
                StepState::Unfinished(e.message.clone())
            } else if let Some(Some(StepState::Unfinished(r))) = answers
                .iter()
                .find(|a| matches!(a, Some(StepState::Unfinished(_))))
            {
                StepState::Unfinished(r.clone())
            } else if answers.iter().any(|a| a.is_some()) {
                StepState::Unfinished("the time limit was reached".into())
            } else {
                StepState::NotStarted
            };
            deepening.done_at.push(b.done_at[s]);
            deepening.same_as.push(self.twin_step(b, s, n));
            let b = &self.bounds[s];
            deepening.steps.push(((b.rounds, b.unwind), state));
            deepening.instances.push(n);
        }
        deepening
    }

    /// The check whose report is the answer, with its step: the race, else the deepest of
    /// the longest prefix that finished "no race", else the first pair's error or unknown
    /// answer (an unknown made here when nothing ran before the time limit).
    fn answering(&self, b: &mut Board, prefix: usize) -> Result<(Done, usize)> {
        if let Some((u, done)) = b.race.take() {
            return Ok((done, u / self.wanted as usize));
        }
        if prefix > 0 {
            let s = prefix - 1;
            // A twin step's report is its first instance's twin's: the same program's.
            let mut from = s;
            while b.no_race[from].is_none() {
                match b.twin_of[self.unit(from, 0)] {
                    Some(u) => from = self.units[u].0,
                    None => break,
                }
            }
            let done = b.no_race[from]
                .take()
                .expect("a step without race has a report");
            return Ok((done, s));
        }
        if let Some(e) = b.errors[0].take() {
            return Err(e);
        }
        if let Some(done) = b.unknown[0].take() {
            return Ok((done, 0));
        }
        // Nothing ran: the time limit was over before the first CBMC started.
        let t = crate::translate_seq(self.parsed, &self.bounds[0])?;
        let outcome = cbmc::Outcome {
            verdict: cbmc::Verdict::Unknown {
                reason: "the time limit was reached".into(),
            },
            exit_code: None,
            wall: Duration::ZERO,
            timed_out: true,
            formula: None,
            stdout: String::new(),
            stderr: String::new(),
        };
        let seq = t.printed.text.clone();
        let report = read_outcome(self.parsed, t, outcome.clone());
        let done = Done {
            report,
            seq,
            outcome,
        };
        Ok((done, 0))
    }
}

/// The search for races of [`crate::check`]: the constant-loop probe, then the deepening
/// schedule's bound pairs (`deepen_steps` more after the request's bounds; only those when
/// it is 0 or there is no time limit), each split into `plan.swarm` instances, run on
/// `plan.jobs` threads (one: in order); the race of the earliest unit wins and stops the
/// units after it. After a
/// race, more races (`max_races`) are searched for at its bounds, one check at a time
/// ([`more_races`]). `keep` keeps the files of the check that gave the answer. Returns the
/// races and what every bound pair gave.
pub(crate) fn check_races_parallel(
    parsed: &Parsed,
    request: &Request,
    progress: &dyn Progress,
) -> Result<(Races, Deepening)> {
    let (opts, cbmc_opts, deadline) = (&request.bounds, &request.cbmc, request.deadline);
    // Without a time limit the schedule is the first bound pair alone (nothing would ever
    // stop the deeper ones); a vacuous "no race" still grows the bounds, one pair at a time.
    let steps = if deadline.is_none() {
        0
    } else {
        request.deepen_steps
    };
    let keep = request.keep.as_deref();
    let mut p = |ph: Phase, o: &Options| progress.phase(ph, o);
    let start = crate::probe_start(parsed, opts, steps, cbmc_opts, keep, deadline, &mut p)?;
    let (mut probed, mut first, mut fallback) = ((Duration::ZERO, Duration::ZERO), None, None);
    if let Some(start) = start {
        let (program, time) = start.first;
        if let Some((mut report, at)) = start.race {
            report.stats.translate += time;
            let deepening = Deepening::sequential(opts, steps, &at, &report.verdict);
            let max = request.max_races;
            let races = more_races(parsed, report, at, cbmc_opts, deadline, max, &mut p);
            return Ok((races, deepening));
        }
        (probed, first, fallback) = (start.spent, Some((program, time)), start.fallback);
    }
    let t0 = Instant::now();
    let (first_bounds, known) = past_vacuity(parsed, request, steps, first.as_ref().map(|f| &f.0));
    // The vacuity queries' time counts in the answer's, as the probe's does.
    probed.1 += t0.elapsed();
    if first_bounds.is_some() {
        // The first pair's program is for the vacuous unwinding.
        first = None;
    }
    let base = first_bounds.as_ref().unwrap_or(opts);
    let bounds: Vec<Options> = (0..=steps).map(|k| deepening_bounds(base, k)).collect();
    let n_steps = bounds.len();
    let executor = Executor::new(parsed, request, progress, bounds, probed, first);
    if known.is_some() {
        *executor.vacuity.lock().unwrap_or_else(|e| e.into_inner()) = Some(known);
    }
    let (mut b, mut deepening, answered) = executor.finish(request.plan.jobs);
    let prefix = deepening.prefix();
    let (first, at) = answered?;
    let Done {
        report,
        seq,
        outcome,
    } = first;
    let at_bounds = executor.bounds[at].clone();
    let (mut report, mut at_bounds) = crate::fall_back((report, at_bounds), fallback);
    if report.fallback.is_some() {
        // The first pair gave no answer and the probe's "no race" stands in.
        // The probe's "no race" was checked for vacuity; the probe kept its own files.
        deepening.probe = true;
    } else {
        if let Some(k) = &request.keep {
            keep_files(k, &seq, &outcome)?;
        }
        match executor.known_vacuity(at) {
            Some(v) if matches!(report.verdict, Finding::NoRace) => report.vacuous = v,
            _ => mark_vacuity(parsed, &mut report, &at_bounds, cbmc_opts, deadline),
        }
    }
    if report.vacuous && prefix == n_steps && request.deepen_steps > 0 {
        // A vacuous "no race" after the whole schedule: the bounds grow on, one pair at a
        // time, up to `deepen_steps` without a time limit, up to MAX_DEEPENING_STEPS with
        // one.
        let last = match deadline {
            Some(_) => request.deepen_steps.max(MAX_DEEPENING_STEPS),
            None => request.deepen_steps,
        };
        let from = n_steps as u32;
        let deeper = deepen_while_vacuous(
            parsed,
            request,
            progress,
            (&at_bounds, from..=last),
            &mut deepening,
        );
        b.translate += deeper.spent.0;
        b.cbmc += deeper.spent.1;
        if let Some((done, at)) = deeper.answer {
            if let Some(k) = &request.keep {
                keep_files(k, &done.seq, &done.outcome)?;
            }
            report = done.report;
            at_bounds = at;
        }
    }
    let (translate_time, cbmc_time) = (b.translate, b.cbmc);
    let mut races = more_races(
        parsed,
        report,
        at_bounds,
        cbmc_opts,
        deadline,
        request.max_races,
        &mut |p, o| progress.phase(p, o),
    );
    // The first check's times are those of all runs of the schedule.
    races.translate += translate_time.saturating_sub(races.reports[0].stats.translate);
    races.cbmc += cbmc_time.saturating_sub(races.reports[0].stats.cbmc);
    // Every bound pair's program and report: gigabytes of syntax trees on large programs.
    crate::drop_in_background((b, executor.shared));
    Ok((races, deepening))
}

#[cfg(test)]
mod tests {

    #[test]
    fn an_explicit_jobs_count_is_capped_by_memory_with_a_note() {
        let gib = 1u64 << 30;
        assert_eq!(cap_jobs(64, Some(3 * gib)).0, 3);
        let note = cap_jobs(64, Some(3 * gib)).1.unwrap();
        assert!(note.contains("--jobs 64 capped to 3"), "{note}");
        assert!(note.contains("memory"), "{note}");
        assert_eq!(cap_jobs(2, Some(3 * gib)), (2, None));
        assert_eq!(cap_jobs(64, Some(gib / 2)).0, 1);
        assert_eq!(cap_jobs(64, None), (64, None));
    }

    use super::*;

    #[test]
    fn no_race_holds_up_to_the_first_bound_pair_that_did_not_finish() {
        let d = Deepening {
            steps: vec![
                ((2, 2), StepState::NoRace),
                ((3, 2), StepState::NoRace),
                ((4, 2), StepState::Unfinished("time".into())),
                ((3, 3), StepState::NoRace),
                ((3, 4), StepState::NotStarted),
            ],
            instances: vec![1; 5],
            probe: false,
            done_at: vec![],
            same_as: vec![],
        };
        // (3,3) finished, but (4,2) before it did not: the answer's bounds are (3,2).
        assert_eq!(d.prefix(), 2);
        assert_eq!(d.finished(), [(2, 2), (3, 2), (3, 3)]);
    }

    #[test]
    fn a_sequential_deepening_finished_every_pair_before_its_answer() {
        let opts = Options {
            rounds: 2,
            unwind: 2,
            ..Options::default()
        };
        let at = deepening_bounds(&opts, 2);
        let d = Deepening::sequential(&opts, 4, &at, &Finding::NoRace);
        assert_eq!(d.prefix(), 3);
        assert_eq!(d.steps[3].1, StepState::NotStarted);
        let d = Deepening::sequential(&opts, 0, &opts, &Finding::NoRace);
        assert_eq!(d.steps.len(), 1);
    }

    #[test]
    fn a_deepening_that_went_on_past_its_steps_lists_every_pair_it_ran() {
        let opts = Options {
            rounds: 2,
            unwind: 2,
            ..Options::default()
        };
        // A vacuous "no race" made it go on to step 4.
        let at = deepening_bounds(&opts, 4);
        for steps in [0, 2] {
            let d = Deepening::sequential(&opts, steps, &at, &Finding::NoRace);
            assert_eq!(d.steps.len(), 5, "{steps}: {:?}", d.steps);
            assert_eq!(d.prefix(), 5);
            assert_eq!(d.steps[4].0, (at.rounds, at.unwind));
        }
    }
}
