//! Deepening past a vacuous "no race" (no execution within the bounds creates a thread):
//! the least unwinding at which `main` creates one, found by cheap vacuity queries before
//! the schedule ([`past_vacuity`]) or after it ([`deepen_while_vacuous`]).

use super::{Deepening, Done, Executor};
use crate::{
    deepening_bounds, mark_vacuity, unwind_past_vacuity, vacuity, Finding, Progress, Request,
    PROBE_SHARE,
};
use ladr_c::frontend::Parsed;
use ladr_ir::program::{CutKind, Options, Program};
use std::time::{Duration, Instant};

/// What [`deepen_while_vacuous`] found: a better answer, and the time all its checks took.
pub(super) struct Deeper {
    pub(super) answer: Option<(Done, Options)>,
    pub(super) spent: (Duration, Duration),
}

/// After a vacuous "no race" at the end of the schedule: first the least unwinding at which
/// `main` creates a thread ([`unwind_past_vacuity`], cheap vacuity queries) at the first
/// bound pair's rounds, checked once; then, when that finds nothing, the bound pairs of
/// `steps`, one at a time (each through the executor, its swarm instances on the request's
/// jobs), while time is left and the answer stays a vacuous "no race". A race, or a "no
/// race" that is not vacuous, is the better answer; a pair without an answer ends the
/// search. What each pair gave is appended to `deepening`.
pub(super) fn deepen_while_vacuous(
    parsed: &Parsed,
    request: &Request,
    progress: &dyn Progress,
    (at, steps): (&Options, std::ops::RangeInclusive<u32>),
    deepening: &mut Deepening,
) -> Deeper {
    let mut deeper = Deeper {
        answer: None,
        spent: (Duration::ZERO, Duration::ZERO),
    };
    if let Some(deadline) = request.deadline {
        let start = Options {
            rounds: request.bounds.rounds,
            ..at.clone()
        };
        let t0 = Instant::now();
        let jump = unwind_past_vacuity(parsed, &start, &request.cbmc, deadline);
        deeper.spent.1 += t0.elapsed();
        if let Some(bounds) = jump {
            if check_past_vacuity(parsed, request, progress, bounds, deepening, &mut deeper) {
                return deeper;
            }
        }
    }
    for step in steps {
        let bounds = deepening_bounds(&request.bounds, step);
        if check_past_vacuity(parsed, request, progress, bounds, deepening, &mut deeper) {
            break;
        }
    }
    deeper
}

/// Before the schedule (with a time limit and deepening): when the first bound pair's
/// unwinding cut a loop (`first`, its program when the probe translated it) and the vacuity
/// query says no execution within it creates a thread, the least unwinding at which one does
/// ([`unwind_past_vacuity`]): the schedule starts there instead of spending its time on bound
/// pairs that check no access of a thread (a key of nine characters lowercased by `main`
/// before the threads start). `(None, v)`: start at the request's bounds, whose vacuity is
/// `v` when the query was asked (the executor's first pair then needs no query of its own).
pub(super) fn past_vacuity(
    parsed: &Parsed,
    request: &Request,
    steps: u32,
    first: Option<&Program>,
) -> (Option<Options>, Option<bool>) {
    let Some(deadline) = request.deadline else {
        return (None, None);
    };
    let cuts_loop = |p: &Program| p.cuts.iter().any(|c| c.kind == CutKind::Loop);
    if steps == 0 || !first.is_some_and(cuts_loop) {
        return (None, None);
    }
    let share = deadline.saturating_duration_since(Instant::now()) / PROBE_SHARE;
    if share.is_zero() {
        return (None, None);
    }
    let opts = &request.bounds;
    let vacuous = vacuity(parsed, opts, &request.cbmc.for_at_most(share));
    if vacuous != Some(true) {
        return (None, vacuous);
    }
    (
        unwind_past_vacuity(parsed, opts, &request.cbmc, deadline),
        None,
    )
}

/// One check of [`deepen_while_vacuous`] at `bounds`, its time added to `deeper`: true when
/// the search ends there (a race or a "no race" that is not vacuous, then `deeper.answer`;
/// no answer; the time is up).
fn check_past_vacuity(
    parsed: &Parsed,
    request: &Request,
    progress: &dyn Progress,
    bounds: Options,
    deepening: &mut Deepening,
    deeper: &mut Deeper,
) -> bool {
    if request.deadline.is_some_and(|d| Instant::now() >= d) {
        return true;
    }
    let zero = (Duration::ZERO, Duration::ZERO);
    let executor = Executor::new(parsed, request, progress, vec![bounds.clone()], zero, None);
    let (b, schedule, answered) = executor.finish(request.plan.jobs);
    // Pairs before these without a time (the probe's schedule) keep the times aligned.
    deepening.done_at.resize(deepening.steps.len(), None);
    deepening.same_as.resize(deepening.steps.len(), None);
    deepening.steps.extend(schedule.steps);
    deepening.instances.extend(schedule.instances);
    deepening.done_at.extend(schedule.done_at);
    deepening.same_as.extend(schedule.same_as);
    deeper.spent.0 += b.translate;
    deeper.spent.1 += b.cbmc;
    crate::drop_in_background((b, executor.shared));
    let Ok((mut done, _)) = answered else {
        return true;
    };
    match &done.report.verdict {
        Finding::Race { .. } => {
            deeper.answer = Some((done, bounds));
            true
        }
        Finding::NoRace => {
            let cbmc_opts = &request.cbmc;
            mark_vacuity(
                parsed,
                &mut done.report,
                &bounds,
                cbmc_opts,
                request.deadline,
            );
            if done.report.vacuous {
                return false;
            }
            deeper.answer = Some((done, bounds));
            true
        }
        Finding::Unknown { .. } => true,
    }
}
