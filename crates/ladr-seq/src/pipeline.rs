//! The pipeline, written once: the order of the passes and what each stage prints.
//!
//! parse → normalise → inline → unwind → threads → visible → racefree → race → lazy. The reasons for
//! the order are in `passes/mod.rs`. Translation is pure: no files, no processes.

use crate::{invariants, passes};
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

type Pass = fn(Program, &Options) -> Result<Program>;

/// Every pass with its name and the stage it completes.
pub const PASSES: &[(&str, Pass, Stage)] = &[
    ("normalise", passes::normalise::run, Stage::Normalised),
    ("inline", passes::inline::run, Stage::Bounded),
    ("unwind", passes::unwind::run, Stage::Bounded),
    ("constprop", passes::constprop::run, Stage::Bounded),
    ("threads", passes::threads::run, Stage::Threads),
    ("visible", passes::visible::run, Stage::Seq),
    ("racefree", passes::racefree::run, Stage::Seq),
    ("race", passes::race::run, Stage::Seq),
    ("lazy", passes::lazy::run, Stage::Seq),
];

/// Runs the passes up to and including `upto`; `after_pass` sees each intermediate program.
///
/// In debug builds and with `opts.check_ir`, the invariants that hold after each pass
/// ([`invariants::HOLDS_AFTER`]) are checked after it; a violation is an internal error
/// naming the pass.
pub fn translate(
    unit: TranslationUnit,
    opts: &Options,
    upto: Stage,
    mut after_pass: impl FnMut(&str, &Program),
) -> Result<Program> {
    crate::unsupported::check(&unit)?;
    let mut p = Program::new(unit);
    for (name, pass, stage) in PASSES {
        if *stage > upto {
            break;
        }
        // The vacuity query asks only whether a created thread runs: no race flags.
        if opts.vacuity_query && *name == "race" {
            continue;
        }
        p = pass(p, opts)?;
        if cfg!(debug_assertions) || opts.check_ir {
            invariants::after_pass(name, &p)?;
        }
        after_pass(name, &p);
    }
    Ok(p)
}
