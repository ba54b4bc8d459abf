//! What the check was doing when the watchdog gave up on it (issue 33 item 3): the check's
//! worker threads record each phase with its bounds and the program's size
//! ([`Watch`], a [`Progress`]); the watchdog, which answers without the check's own answer,
//! says which phase ran out (translation, CBMC's front end, symbolic execution, SAT), the
//! size, and the option most likely to help.

use ladr_cbmc::Phase as CbmcPhase;
use ladr_check::{Phase, Progress};
use ladr_ir::program::Options;
use std::sync::Mutex;

/// The last phase a worker started, at which bounds, and the size of the program it checks.
#[derive(Clone, Copy)]
struct Doing {
    phase: Phase,
    rounds: u32,
    unwind: u32,
    /// Thread slots, visible statements, instrumented accesses (once translated).
    size: Option<(usize, usize, usize)>,
}

static DOING: Mutex<Option<Doing>> = Mutex::new(None);

/// A [`Progress`] that records what the check does, and tells `show` too.
pub struct Watch<F: Fn(Phase, &Options) + Sync>(pub F);

impl<F: Fn(Phase, &Options) + Sync> Progress for Watch<F> {
    fn phase(&self, phase: Phase, bounds: &Options) {
        if let Ok(mut d) = DOING.lock() {
            // The size stays when CBMC starts on the program just translated.
            let size = match (phase, *d) {
                (Phase::Cbmc, Some(old))
                    if (old.rounds, old.unwind) == (bounds.rounds, bounds.unwind) =>
                {
                    old.size
                }
                _ => None,
            };
            *d = Some(Doing {
                phase,
                rounds: bounds.rounds,
                unwind: bounds.unwind,
                size,
            });
        }
        (self.0)(phase, bounds)
    }

    fn size(&self, bounds: &Options, slots: usize, visible: usize, instrumented: usize) {
        if let Ok(mut d) = DOING.lock() {
            *d = Some(Doing {
                phase: Phase::Cbmc,
                rounds: bounds.rounds,
                unwind: bounds.unwind,
                size: Some((slots, visible, instrumented)),
            });
        }
    }
}

/// Why the watchdog gave up after `limit` seconds: the phase that ran out, with its bounds,
/// the program's size when known, and the option most likely to help.
pub fn out_of_time(limit: f64) -> String {
    let doing = DOING.lock().ok().and_then(|d| *d);
    let Some(d) = doing else {
        return format!(
            "the time limit of {limit} s was reached before the check started (reading the \
             program); may help: fewer files or a smaller harness"
        );
    };
    let bounds = format!("{} rounds and {} unwindings", d.rounds, d.unwind);
    let size = d.size.map_or(String::new(), |(s, v, i)| {
        format!(" ({s} thread slots, {v} visible statements, {i} instrumented accesses)")
    });
    let (phase, help) = match d.phase {
        Phase::Translating => (
            "ladr's translation".to_string(),
            "a smaller --unwind or --max-unwind (each unwinding copies the loops' bodies)",
        ),
        Phase::Cbmc => match ladr_cbmc::process::live_phase() {
            None | Some(CbmcPhase::FrontEnd) => (
                format!("CBMC's {}", "front end (reading the program)"),
                "a smaller harness, a smaller --unwind or fewer --max-threads",
            ),
            Some(CbmcPhase::SymbolicExecution) | Some(CbmcPhase::Formula) => (
                format!("CBMC, in {}", live_words()),
                "a smaller --unwind, fewer --rounds or --max-threads, or --swarm N to split \
                 the check",
            ),
            Some(CbmcPhase::Solving) => (
                "CBMC, in the SAT solver".to_string(),
                "--swarm N to split the search, or fewer --rounds",
            ),
        },
    };
    format!(
        "the time limit of {limit} s was reached in {phase} at {bounds}{size}; may help: {help}"
    )
}

fn live_words() -> &'static str {
    ladr_cbmc::process::live_phase().map_or("its front end", CbmcPhase::words)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What the watchdog says follows what the workers recorded last: the translation with
    /// its bounds, then CBMC with the program's size (no CBMC ran here: its front end).
    #[test]
    fn the_watchdog_names_the_phase_the_bounds_and_the_size() {
        let watch = Watch(|_: Phase, _: &Options| {});
        let bounds = Options {
            rounds: 3,
            unwind: 4,
            ..Options::default()
        };
        watch.phase(Phase::Translating, &bounds);
        let said = out_of_time(300.0);
        assert!(
            said.starts_with(
                "the time limit of 300 s was reached in ladr's translation at 3 rounds and \
                 4 unwindings; may help: a smaller --unwind"
            ),
            "{said}"
        );
        watch.size(&bounds, 5, 1423, 1282);
        watch.phase(Phase::Cbmc, &bounds);
        let said = out_of_time(300.0);
        assert!(
            said.contains(
                "at 3 rounds and 4 unwindings (5 thread slots, 1423 visible statements, 1282 \
                 instrumented accesses); may help: "
            ),
            "{said}"
        );
        assert!(said.contains("reached in CBMC"), "{said}");
    }
}
