//! The race check, one entry point: [`check`] takes the parsed program and a [`Request`]
//! (bounds, switches, time and memory limits, jobs) and gives an [`Answer`] of plain data
//! (verdict, races with their accesses, interleavings and locks held, bounds and cuts,
//! assumptions, the deepening schedule, measures). Nothing of the check's programs or of
//! CBMC's traces leaves this crate: the trace is mapped to the user's program in
//! `answer`, before the programs are freed.
//!
//! ```text
//! check ─ proof::prove (Request::prove: First or Only; a proof answers without CBMC)
//!       ─ deepen::probe_start (the constant-loop probe, then the prefix probe)
//!       ─ parallel::check_races_parallel (the deepening schedule on `jobs` workers, 1 or
//!       │   more; each unit: single::translate_seq ─ run_cbmc ─ read_outcome ─ Report)
//!       ─ deepen::more_races (after a race, one check at a time)
//!       └ answer::of_races ─ Answer
//! recorded ─ Swarm (a bound pair's instances, for CBMC runs elsewhere: `ladr swarm emit`)
//!          ─ swarm, one (their recorded outputs ─ read_outcome ─ Answer)
//! ```
//! The root exports [`check`], the types of its request and answer, and [`recorded`], a
//! second entry kept apart because `check` runs CBMC itself while `recorded` answers from
//! CBMC runs made elsewhere (`ladr swarm collect`, tests of the trace mapping on recorded
//! CBMC output); nothing else (`tests/it/tidy.rs` lists the public items).
//!
//! Architecture invariant: this crate renders nothing (no text, no JSON writing; the
//! answer's types derive `Serialize`, their field names being the JSON schema) and reads no
//! command line; it reads fixed names only from `ladr_ir::abi`, CBMC's naming rules only
//! from `ladr_cbmc::names`.

mod answer;
mod deepen;
mod omp_cuts;
mod parallel;
mod proof;
pub mod recorded;
mod single;

pub use answer::{
    AccessInfo, Answer, Bounds, Context, GiveUp, LockHeld, ObjectAnswer, OmpConstruct, Position,
    ProofAnswer, Race, Search, Stats, StepInfo, Thread, Value, Verdict, Word,
};
pub use deepen::{DEEPEN_STEPS, VACUITY_GRACE};
pub use parallel::{Deepening, Plan, StepState};

pub(crate) use deepen::*;
pub(crate) use ladr_c::trees::{drop_in_background, STACK};
pub(crate) use single::*;

use ladr_c::diag::Result;
use ladr_c::frontend::Parsed;
use ladr_cbmc as cbmc;
use ladr_ir::program::Options;
use std::path::PathBuf;
use std::time::Instant;

/// What [`until`] gave.
pub(crate) enum Waited<T> {
    Done(T),
    /// The deadline passed or the cancel flag was set first.
    Stopped,
    /// The work's thread ended without a result (it panicked).
    Failed,
}

/// Runs `work` on a thread of its own and waits for it until `deadline`, or until `cancel`
/// is set: [`Waited::Stopped`] then, the thread left to finish (and free what it made)
/// alone. Where no thread can be started, `work` runs here, to its end.
pub(crate) fn until<T: Send + 'static>(
    deadline: Instant,
    cancel: Option<&std::sync::atomic::AtomicBool>,
    work: impl FnOnce() -> T + Send + 'static,
) -> Waited<T> {
    use std::sync::mpsc::{channel, RecvTimeoutError};
    let (tx, rx) = channel();
    let work = std::sync::Arc::new(std::sync::Mutex::new(Some(work)));
    let theirs = work.clone();
    let spawned = std::thread::Builder::new()
        .name("translate".into())
        .stack_size(STACK)
        .spawn(move || {
            let work = theirs.lock().ok().and_then(|mut w| w.take());
            if let Some(work) = work {
                let _ = tx.send(work());
            }
        });
    if spawned.is_err() {
        return match work.lock().ok().and_then(|mut w| w.take()) {
            Some(work) => Waited::Done(work()),
            None => Waited::Failed,
        };
    }
    loop {
        let left = deadline.saturating_duration_since(Instant::now());
        match rx.recv_timeout(left.min(std::time::Duration::from_millis(100))) {
            Ok(done) => return Waited::Done(done),
            Err(RecvTimeoutError::Timeout) => {
                let cancelled = cancel.is_some_and(|c| c.load(std::sync::atomic::Ordering::SeqCst));
                if left.is_zero() || cancelled {
                    return Waited::Stopped;
                }
            }
            Err(RecvTimeoutError::Disconnected) => return Waited::Failed,
        }
    }
}

/// What to check, and how.
#[derive(Clone, Debug)]
pub struct Request {
    /// The bounds of the first bound pair, with the translation's switches.
    pub bounds: Options,
    /// How CBMC runs: its path, the data model, the time limit of one run.
    pub cbmc: cbmc::Options,
    /// Keep the sequential program and CBMC's output of the check that gave the answer
    /// here (`--keep-files`; prepared with [`prepare_keep_dir`]).
    pub keep: Option<PathBuf>,
    /// When the whole check must end; none: no limit, and then no deepening (nothing
    /// would stop the deeper bounds).
    pub deadline: Option<Instant>,
    /// Bound pairs of the deepening schedule after the first (0: only `bounds`).
    pub deepen_steps: u32,
    /// Races to report at most (none: every race within the bounds).
    pub max_races: Option<usize>,
    /// CBMC runs at once and swarm instances per bound pair.
    pub plan: Plan,
    /// Each CBMC run's share of the memory budget (`--memory`), in bytes; none: no limit.
    pub cbmc_memory: Option<u64>,
    /// Whether the static race analysis runs, and whether the bounded check follows it.
    /// [`Prove::Skip`] in [`Request::new`].
    pub prove: Prove,
}

/// The static race analysis (`ladr_seq::prove`) in a check.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Prove {
    /// Only the bounded check runs.
    Skip,
    /// The analysis runs first: a program it proves race-free is answered "no race in any
    /// execution" without CBMC; otherwise the bounded check runs, and the answer keeps
    /// what the analysis said (`Answer::proof`).
    First,
    /// Only the analysis runs (`--prove-only`): "no race in any execution" when it proves
    /// every pair, else no verdict; `Answer::proof` says why. CBMC is not run.
    Only,
}

impl Request {
    /// A request for `bounds` with CBMC at `cbmc`: no time limit, no deepening, the first
    /// race only, one CBMC at a time.
    pub fn new(bounds: Options, cbmc: cbmc::Options) -> Request {
        Request {
            bounds,
            cbmc,
            keep: None,
            deadline: None,
            deepen_steps: 0,
            max_races: Some(1),
            plan: Plan { jobs: 1, swarm: 1 },
            cbmc_memory: None,
            prove: Prove::Skip,
        }
    }

    /// A request for the static analysis only ([`Prove::Only`]) at `bounds`: CBMC is
    /// neither run nor looked for.
    pub fn proof_only(bounds: Options) -> Request {
        Request {
            prove: Prove::Only,
            ..Request::new(bounds, cbmc::Options::new(PathBuf::new()))
        }
    }

    /// Are `bounds` those of the constant-loop probe (loops of a constant bound cut at the
    /// unwinding) in this check? For a progress display.
    pub fn is_probe(&self, bounds: &Options) -> bool {
        deepen::is_probe(&self.bounds, bounds)
    }
}

/// What a check is doing, for a progress display.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Phase {
    /// Running the passes and the printer.
    Translating,
    /// CBMC is checking the sequential program.
    Cbmc,
}

/// Told each phase of a check with the bounds it works at (from the check's worker threads).
pub trait Progress: Sync {
    fn phase(&self, phase: Phase, bounds: &Options);
    /// The program translated at `bounds`, which CBMC checks next: its thread slots,
    /// visible statements and instrumented accesses.
    fn size(&self, _bounds: &Options, _slots: usize, _visible: usize, _instrumented: usize) {}
}

impl<F: Fn(Phase, &Options) + Sync> Progress for F {
    fn phase(&self, phase: Phase, bounds: &Options) {
        self(phase, bounds)
    }
}

/// Checks `parsed` as `request` asks: the static proof ([`Prove`]; a proof is the answer),
/// then the constant-loop probe, the first bound pair, then (with a time limit) the
/// deepening schedule on `plan.jobs` workers, the first race winning; then more races at
/// its bounds, up to `max_races`. With one job (SV-COMP mode, `ladr check`) the same
/// executor runs the bound pairs one after the other. `--keep-files DIR` is checked
/// before anything runs (a bad place is a usage error).
pub fn check(parsed: &Parsed, request: &Request, progress: &dyn Progress) -> Result<Answer> {
    if request.prove == Prove::Only {
        return Ok(answer::of_proof(
            proof::prove(parsed, &request.bounds)?,
            parsed,
            &request.bounds,
        ));
    }
    if let Some(dir) = &request.keep {
        prepare_keep_dir(dir)?;
    }
    if let Some(bytes) = request.cbmc_memory {
        ladr_cbmc::process::limit_children(bytes);
    }
    // A translation error here is the bounded check's too: it reports it.
    let (proof, facts) = match request.prove {
        Prove::First => match proof::prove_with_facts(parsed, &request.bounds) {
            Ok((p, facts)) => (Some(p), Some(facts)),
            Err(_) => (None, None),
        },
        _ => (None, None),
    };
    if let Some(p) = proof.as_ref().filter(|p| p.proved) {
        // What the passes refuse (a construct ladr cannot check) is refused here too: a
        // proof is no reason to answer a program ladr would not check. The refusals are of
        // constructs, which one copy of each loop body and call shows: the least bounds
        // (DataRaceBench's DRB042 translates in 9 s so, in 95 s and 8.5 GB at 2/2).
        // With the proof's verdicts, as the bounded check would have them (computed again
        // inside the translation, on the lane model, they were most of DRB042's 20 s).
        let least = Options {
            rounds: 1,
            unwind: 1,
            max_unwind: 0,
            proved: request.bounds.proved.clone().or(facts),
            ..request.bounds.clone()
        };
        drop_in_background(translate_seq(parsed, &least)?);
        return Ok(answer::of_proof(p.clone(), parsed, &request.bounds));
    }
    // The proof's verdicts once, as data for every translation of the bounded check.
    let mut request = request.clone();
    if request.bounds.proof_facts && request.bounds.proved.is_none() {
        request.bounds.proved = facts;
    }
    let mut answer = bounded(parsed, &request, progress)?;
    // A grown team is a program lowered again: its translations compute their own facts.
    request.bounds.proved = None;
    grow_omp_team(parsed, &request, progress, &mut answer)?;
    omp_cuts::omp_threads_cut(parsed, &request, &mut answer);
    omp_cuts::omp_inner_loop_cut(parsed, &mut answer);
    vacuous_is_unknown(&mut answer);
    answer.proof = proof;
    Ok(answer)
}

/// A vacuous "no race" (the program creates threads, but no execution within the bounds
/// creates one) checked no access of a thread: no answer, never "no race" (exit 3, the
/// gate's unknown, SV-COMP's `unknown`). `bounds.vacuous` still says why. A racy program
/// whose set-up loop the bounds cut (`init(512)` filling a table before the threads start:
/// issue 33's cmap harnesses) passed a race gate with it.
fn vacuous_is_unknown(answer: &mut Answer) {
    if answer.verdict != Verdict::NoRace || !answer.bounds.vacuous {
        return;
    }
    let b = &answer.bounds;
    let loops = match b.cut_loops.as_slice() {
        [] => String::new(),
        ls => format!(" (loops cut: {})", answer::Position::places(ls)),
    };
    let heap = match (b.heap_block, b.cut_allocations.first()) {
        (Some(bytes), Some(at)) => format!(
            ", or a larger --heap-block (an allocation of more than {bytes} bytes stops an \
             execution: {}:{})",
            at.file, at.line
        ),
        _ => String::new(),
    };
    answer.verdict = Verdict::Unknown {
        reason: format!(
            "vacuous: no execution within {} rounds and {} unwindings creates a thread, so \
             no access of a thread was checked{loops}; may help: a larger --unwind, or \
             --max-unwind N to unwind a loop of a constant bound up to N completely{heap}",
            b.rounds, b.unwind
        ),
    };
}

/// The bounded check of `parsed` (the deepening schedule, more races).
fn bounded(parsed: &Parsed, request: &Request, progress: &dyn Progress) -> Result<Answer> {
    let (races, schedule) = parallel::check_races_parallel(parsed, request, progress)?;
    let answer = answer::of_races(&races, parsed, schedule);
    // Every report's program: gigabytes of syntax trees on large programs.
    drop_in_background(races);
    Ok(answer)
}

/// How many threads the deepening adds to the OpenMP teams the program does not size: one
/// (a race that needs a third thread, `tests/e2e/omp_three_threads_racy.c`); each thread
/// more runs the whole schedule again, on a larger program.
const DEEPENED_TEAM_GROWTH: usize = 1;

/// The deepening's team dimension: after a bounded "no race" (not vacuous) with time
/// left, the OpenMP teams the program does not size grow by one thread and the whole
/// check runs again ([`Parsed::with_omp_team`]), up to [`DEEPENED_TEAM_GROWTH`] threads
/// more, while it answers "no race" and time is left. A race there is the answer; a "no race" there replaces the smaller team's (it
/// holds for more executions); no answer keeps the smaller team's "no race". The answer
/// states the team it was given for (`bounds.omp_threads`, `omp_threads_from`).
fn grow_omp_team(
    parsed: &Parsed,
    request: &Request,
    progress: &dyn Progress,
    answer: &mut Answer,
) -> Result<()> {
    let Some(start) = parsed.omp_threads else {
        return Ok(());
    };
    if request.deepen_steps == 0 || request.deadline.is_none() {
        return Ok(());
    }
    let mut team = start;
    while answer.verdict == Verdict::NoRace
        && !answer.bounds.vacuous
        && team < start + DEEPENED_TEAM_GROWTH
    {
        if request.deadline.is_some_and(|d| Instant::now() >= d) {
            break;
        }
        team += 1;
        let Some(grown) = parsed.with_omp_team(team) else {
            break;
        };
        let grown = grown?;
        let mut next = bounded(&grown, request, progress)?;
        drop_in_background(grown);
        if matches!(next.verdict, Verdict::Unknown { .. }) {
            break;
        }
        next.bounds.omp_threads_from = Some(start);
        *answer = next;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::{until, Waited};
    use std::time::{Duration, Instant};

    #[test]
    fn until_gives_the_work_its_result_stops_at_the_deadline_and_tells_a_panic() {
        let far = Instant::now() + Duration::from_secs(3600);
        assert!(matches!(until(far, None, || 7), Waited::Done(7)));
        // Work that never ends, a deadline already past: stopped, not waited for.
        let (_keep, rx) = std::sync::mpsc::channel::<()>();
        let never = move || rx.recv().ok();
        assert!(matches!(
            until(Instant::now(), None, never),
            Waited::Stopped
        ));
        // A set cancel flag stops the wait as the deadline does.
        let (_keep, rx) = std::sync::mpsc::channel::<()>();
        let cancel = std::sync::atomic::AtomicBool::new(true);
        let never = move || rx.recv().ok();
        assert!(matches!(until(far, Some(&cancel), never), Waited::Stopped));
        let panics = || -> u32 { panic!("the work failed") };
        assert!(matches!(until(far, None, panics), Waited::Failed));
    }
}
