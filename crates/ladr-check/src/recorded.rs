//! The second entry point, for checks whose CBMC runs elsewhere: the swarm instances that
//! `ladr swarm emit` writes and a cluster runs ([`Swarm`]), answered from their recorded
//! outputs by `ladr swarm collect` ([`swarm`]), and recorded CBMC output in the tests of
//! the trace mapping ([`translate`], [`record`], [`one`]). [`check`](crate::check) cannot
//! serve them: it runs CBMC itself. The sequential programs are translated again here (the
//! caller checks they are the ones CBMC ran); the counterexamples are mapped exactly as a
//! check's.

use crate::answer::{self, Answer};
use crate::parallel::Deepening;
use crate::single::{read_outcome, wants_arrays_uf, Finding, Report};
use crate::{race_pair, Races, SearchEnd};
use ladr_c::diag::Result;
use ladr_c::frontend::Parsed;
use ladr_c::print::print_unit;
use ladr_cbmc as cbmc;
use ladr_ir::program::{Options, Program};
use ladr_seq::pipeline::{translate as translate_at, Stage};
use ladr_seq::swarm as split;
use std::time::Duration;

pub use crate::single::Translated;

/// Translates `parsed` at `bounds` into the sequential program CBMC checks, printed (pure:
/// no files).
pub fn translate(parsed: &Parsed, bounds: &Options) -> Result<Translated> {
    crate::single::translate_seq(parsed, bounds)
}

/// One bound pair's check split into self-contained swarm instances (`ladr_seq::swarm`):
/// instance `i` checks the executions whose first racing access ends a context in
/// [`Swarm::part`]`(i)`.
pub struct Swarm {
    program: Program,
    rounds: u32,
    /// How many instances (at most the contexts).
    pub instances: u32,
    /// The contexts the first racing access can end (rounds × threads).
    pub contexts: u64,
    /// CBMC checks the instances with uninterpreted functions for arrays
    /// ([`ladr_cbmc::Options::with_arrays_uf`]): the program has a large array.
    pub arrays_uf: bool,
}

impl Swarm {
    /// The check of `parsed` at `bounds` in `wanted` instances (at most one per context).
    pub fn new(parsed: &Parsed, bounds: &Options, wanted: u32) -> Result<Swarm> {
        let program = translate_at(parsed.unit.clone(), bounds, Stage::Seq, |_, _| {})?;
        Ok(Swarm {
            contexts: split::contexts(&program, bounds.rounds),
            instances: split::instances(&program, bounds.rounds, wanted),
            arrays_uf: wants_arrays_uf(&program),
            rounds: bounds.rounds,
            program,
        })
    }

    /// The contexts instance `i` covers.
    pub fn part(&self, i: u32) -> std::ops::Range<u64> {
        split::part(self.contexts, self.instances, i)
    }

    /// Instance `i`'s program (pure: the same inputs give the same text).
    pub fn instance(&self, i: u32) -> Result<Translated> {
        let p = if self.instances > 1 {
            split::restrict(self.program.clone(), self.rounds, self.instances, i)?
        } else {
            self.program.clone()
        };
        let printed = print_unit(&p.unit);
        Ok(Translated {
            program: p,
            printed,
            time: Duration::ZERO,
        })
    }
}

/// CBMC's outcome from what a run left: its exit status (124: stopped by `timeout`), its
/// `--json-ui` output and its standard error.
pub fn cbmc_outcome(exit_code: Option<i32>, stdout: String, stderr: String) -> cbmc::Outcome {
    let (verdict, formula) = cbmc::interpret(exit_code, &stdout, &stderr);
    cbmc::Outcome {
        verdict,
        exit_code,
        wall: Duration::ZERO,
        timed_out: exit_code == Some(124),
        formula,
        stdout,
        stderr,
    }
}

/// Runs CBMC on `t` as a check does, for a recording of its output (no answer is made).
pub fn record(t: &Translated, cbmc_opts: &cbmc::Options) -> ladr_c::diag::Result<cbmc::Outcome> {
    crate::single::run_cbmc(t, cbmc_opts, None)
}

/// The answer of one check of `t` (translated at `bounds`) whose CBMC gave `outcome`.
pub fn one(parsed: &Parsed, t: Translated, outcome: cbmc::Outcome, bounds: &Options) -> Answer {
    answer::of_report(&read_outcome(parsed, t, outcome), parsed, bounds)
}

/// What one swarm instance gave.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum InstanceState {
    Race,
    NoRace,
    /// No answer (time limit, CBMC failure, not run).
    Unknown,
}

/// The answer of the swarm instances of one bound pair (`bounds`): each instance's program
/// and its CBMC outcome (none: the instance left no output). Every distinct pair of
/// accesses some instance found racing is a race (in instance order; each instance stops
/// at its first race, so the search ends "stopped"); with none, the first instance that
/// gave no answer makes the answer unknown; else no race. Also returns each instance's
/// state.
pub fn swarm(
    parsed: &Parsed,
    bounds: &Options,
    instances: Vec<(Translated, Option<cbmc::Outcome>)>,
) -> (Answer, Vec<InstanceState>) {
    let mut states = vec![];
    let mut races: Vec<Report> = vec![];
    let mut first_unknown: Option<(String, Option<Report>)> = None;
    let mut no_race: Option<Report> = None;
    let mut spare: Option<Translated> = None;
    // A pair is the same race whichever access came first.
    let key = |v: &Finding| race_pair(v).map(|[a, b]| (a.min(b), a.max(b)));
    for (i, (t, outcome)) in instances.into_iter().enumerate() {
        let Some(outcome) = outcome else {
            states.push(InstanceState::Unknown);
            if first_unknown.is_none() {
                first_unknown = Some((format!("instance {i} has no output (not run?)"), None));
            }
            spare.get_or_insert(t);
            continue;
        };
        let report = read_outcome(parsed, t, outcome);
        match &report.verdict {
            Finding::Race { .. } => {
                states.push(InstanceState::Race);
                let p = key(&report.verdict);
                if !races.iter().any(|x| key(&x.verdict) == p) {
                    races.push(report);
                }
            }
            Finding::NoRace => {
                states.push(InstanceState::NoRace);
                no_race.get_or_insert(report);
            }
            Finding::Unknown { reason } => {
                states.push(InstanceState::Unknown);
                if first_unknown.is_none() {
                    first_unknown = Some((format!("instance {i}: {reason}"), Some(report)));
                }
            }
        }
    }
    let (reports, end) = if !races.is_empty() {
        let end = SearchEnd::Stopped {
            reason: "each swarm instance reports its first race only".into(),
        };
        (races, end)
    } else if let Some((why, report)) = first_unknown {
        let mut report = match (report, no_race, spare) {
            (Some(r), _, _) | (None, Some(r), _) => r,
            (None, None, Some(t)) => {
                let outcome = cbmc_outcome(None, String::new(), String::new());
                read_outcome(parsed, t, outcome)
            }
            (None, None, None) => unreachable!("an instance without output keeps its program"),
        };
        report.verdict = Finding::Unknown {
            reason: why.clone(),
        };
        (vec![report], SearchEnd::Stopped { reason: why })
    } else {
        let report = no_race.expect("every instance answered no race");
        (vec![report], SearchEnd::AllFound)
    };
    let found = Races {
        reports,
        bounds: bounds.clone(),
        end,
        translate: Duration::ZERO,
        cbmc: Duration::ZERO,
    };
    let answer = answer::of_races(&found, parsed, Deepening::default());
    (answer, states)
}
