//! The pipeline, written once: the order of the passes and what each stage prints.
//!
//! parse → normalise → inline → unwind → threads → visible → racefree → race → lazy. The reasons for
//! the order are in `passes/mod.rs`. Translation is pure: no files, no processes.

use crate::invariants::{self, Invariant};
use crate::passes;
use ladr_c::diag::Result;
use ladr_ir::program::{Options, Program};
use lang_c::ast::TranslationUnit;

/// A point of the pipeline whose program can be printed (`--emit`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Stage {
    /// After parsing (the round-trip of the front end and printer).
    Parsed,
    /// After `normalise`.
    Normalised,
    /// The bounded program: after `inline` and `unwind`.
    Bounded,
    /// After `threads`: one function per slot, pthread model added.
    Threads,
    /// The sequential program given to CBMC.
    Seq,
}

type Run = fn(Program, &Options) -> Result<Program>;

/// A pass of the pipeline, named by this and nothing else.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum PassId {
    Normalise,
    Inline,
    Unwind,
    Constprop,
    Threads,
    Visible,
    Racefree,
    Race,
    Dataonly,
    Lazy,
}

impl PassId {
    /// The pass's name in messages (the name of its module).
    pub fn name(self) -> &'static str {
        match self {
            PassId::Normalise => "normalise",
            PassId::Inline => "inline",
            PassId::Unwind => "unwind",
            PassId::Constprop => "constprop",
            PassId::Threads => "threads",
            PassId::Visible => "visible",
            PassId::Racefree => "racefree",
            PassId::Race => "race",
            PassId::Dataonly => "dataonly",
            PassId::Lazy => "lazy",
        }
    }

    /// Its entry of [`PASSES`].
    pub fn pass(self) -> &'static Pass {
        PASSES
            .iter()
            .find(|p| p.id == self)
            .expect("every pass is in PASSES")
    }
}

impl std::fmt::Display for PassId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// One pass: what runs, the stage it completes and the invariants that hold after it
/// (checked after it in debug builds and with `Options::check_ir`).
pub struct Pass {
    pub id: PassId,
    pub run: Run,
    pub stage: Stage,
    pub holds: &'static [Invariant],
}

/// Every pass, in order: the one table of the pipeline. Everywhere the model's functions
/// (`abi::is_model_function`, from `model/pthread.c`) are left out of the invariants: they
/// are hand-written C outside the normal form (constant-bound `for` loops in
/// `__ladr_main_args`, initialised locals, nondet calls in conditions) that no pass
/// rewrites, flattens or instruments. Calls of model functions, and the driver's calls of
/// the slot functions, are no calls of defined functions.
pub const PASSES: &[Pass] = &[
    // loops and backward gotos stay; calls of defined functions stay
    Pass {
        id: PassId::Normalise,
        run: passes::normalise::run,
        stage: Stage::Normalised,
        holds: invariants::NORMAL_FORM,
    },
    // every call of a defined function is inlined; loops stay
    Pass {
        id: PassId::Inline,
        run: passes::inline::run,
        stage: Stage::Bounded,
        holds: invariants::INLINED,
    },
    Pass {
        id: PassId::Unwind,
        run: passes::unwind::run,
        stage: Stage::Bounded,
        holds: invariants::BOUNDED,
    },
    Pass {
        id: PassId::Constprop,
        run: passes::constprop::run,
        stage: Stage::Bounded,
        holds: invariants::BOUNDED,
    },
    Pass {
        id: PassId::Threads,
        run: passes::threads::run,
        stage: Stage::Threads,
        holds: invariants::BOUNDED_UNIQUE,
    },
    // the slots' code is in `Program::code`
    Pass {
        id: PassId::Visible,
        run: passes::visible::run,
        stage: Stage::Seq,
        holds: invariants::BOUNDED_UNIQUE,
    },
    Pass {
        id: PassId::Racefree,
        run: passes::racefree::run,
        stage: Stage::Seq,
        holds: invariants::BOUNDED_UNIQUE,
    },
    Pass {
        id: PassId::Race,
        run: passes::race::run,
        stage: Stage::Seq,
        holds: invariants::INSTRUMENTED,
    },
    // stores into data-only arrays dropped; `Program::exact_summaries`
    Pass {
        id: PassId::Dataonly,
        run: passes::dataonly::run,
        stage: Stage::Seq,
        holds: invariants::INSTRUMENTED,
    },
    Pass {
        id: PassId::Lazy,
        run: passes::lazy::run,
        stage: Stage::Seq,
        holds: invariants::INSTRUMENTED,
    },
];

/// Runs the passes up to and including `upto`; `after_pass` sees each intermediate program.
///
/// In debug builds and with `opts.check_ir`, the invariants that hold after each pass
/// ([`Pass::holds`]) are checked after it; a violation is an internal error naming the pass.
pub fn translate(
    unit: TranslationUnit,
    opts: &Options,
    upto: Stage,
    mut after_pass: impl FnMut(PassId, &Program),
) -> Result<Program> {
    // Loops run as one iteration (`unwind::sample`) whose arbitrary values decide
    // something: a race found would be no answer, so the loops keep their copies.
    let again = (opts.sample_loops && upto == Stage::Seq).then(|| unit.clone());
    let p = translate_once(unit, opts, upto, &mut after_pass)?;
    match again {
        Some(unit) if p.sampled > 0 && !p.exact_summaries => {
            let copies = Options {
                sample_loops: false,
                ..opts.clone()
            };
            translate_once(unit, &copies, upto, &mut after_pass)
        }
        _ => Ok(p),
    }
}

/// [`translate`] with `opts` as they are.
fn translate_once(
    unit: TranslationUnit,
    opts: &Options,
    upto: Stage,
    after_pass: &mut impl FnMut(PassId, &Program),
) -> Result<Program> {
    crate::unsupported::check(&unit)?;
    let mut p = Program::new(unit);
    for pass in PASSES {
        if pass.stage > upto {
            break;
        }
        // The vacuity query asks only whether a created thread runs: no race flags, but
        // the zero-width bit-fields padded as the race pass does (CBMC aborts on them).
        if opts.vacuity_query && pass.id == PassId::Race {
            crate::passes::race::pad_zero_width_bit_fields(&mut p);
            continue;
        }
        p = (pass.run)(p, opts)?;
        if cfg!(debug_assertions) || opts.check_ir {
            check_after(pass.id, &p)?;
        }
        // The static proof's verdicts on single objects, for a program it does not
        // prove as a whole (one it proves is answered without a bounded check): as the
        // check computed them once, or computed here.
        if pass.id == PassId::Normalise && opts.proof_facts {
            p.proved = match &opts.proved {
                Some(facts) => facts.clone(),
                None => crate::prove::prove(&p).proved_objects,
            };
        }
        after_pass(pass.id, &p);
    }
    Ok(p)
}

/// Checks what holds after `pass` ([`Pass::holds`]); the first violation as an internal
/// error naming the pass.
pub fn check_after(pass: PassId, p: &Program) -> Result<()> {
    match invariants::check(p, pass.pass().holds).into_iter().next() {
        None => Ok(()),
        Some(v) => Err(invariants::internal_error(pass.name(), &v)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use invariants::Invariant::Loop;
    use ladr_c::diag::ErrorKind;

    #[test]
    fn a_loop_left_after_unwind_is_an_internal_error_naming_the_pass() {
        let (_, unit, _) = ladr_c::frontend::parse_text(
            "int x; int main(void) { while (x) x--; return 0; }",
            "t.c",
        )
        .unwrap();
        let p = Program::new(unit);
        let found: Vec<Invariant> = invariants::check(&p, invariants::BOUNDED)
            .into_iter()
            .map(|v| v.invariant)
            .collect();
        assert_eq!(found, vec![Loop]);
        let e = check_after(PassId::Unwind, &p).unwrap_err();
        assert_eq!(e.kind, ErrorKind::Internal);
        assert!(
            e.message.contains("`unwind`") && e.message.contains("Loop"),
            "{e}"
        );
        assert!(e.span.is_some());
        // `normalise` does not promise loop-freedom.
        assert!(check_after(PassId::Normalise, &p).is_ok());
    }
}
