//! The static race proof (`ladr_seq::prove`, issue 30) in the user's terms: run on the
//! normalised program before any bounded check; when it proves every pair, the check's
//! answer is "no data race in any execution" and CBMC never runs.

use crate::answer::steps;
pub use crate::answer::{GiveUp, ObjectAnswer, ProofAnswer};
use ladr_c::diag::Result;
use ladr_c::frontend::Parsed;
use ladr_ir::program::{AssumedResult, Options, Proved};
use ladr_seq::pipeline::{translate, Stage};
use std::time::Instant;

/// Runs the static analysis on `parsed` (normalised with `opts`).
pub fn prove(parsed: &Parsed, opts: &Options) -> Result<ProofAnswer> {
    prove_with_facts(parsed, opts).map(|(answer, _)| answer)
}

/// [`prove`], with the verdicts on single objects that the bounded check's translations
/// use (`Options::proved`).
pub fn prove_with_facts(parsed: &Parsed, opts: &Options) -> Result<(ProofAnswer, Proved)> {
    let t0 = Instant::now();
    // The proof once: not also inside `translate` for the bounded program's facts.
    let opts = Options {
        proof_facts: false,
        ..opts.clone()
    };
    // A program with `simd` lanes: first the view with those loops plain, whose lanes the
    // proof checks itself; it answers only when it proves the whole program (its verdicts
    // on single objects do not hold for the program the bounded check runs).
    let folded = match parsed.proof_view() {
        Some(Ok(view)) => {
            let unit = translate(view.parsed.unit, &opts, Stage::Normalised, |_, _| {})?;
            Some(ladr_seq::prove::prove_folded(&unit, &view.simd_bodies)).filter(|p| p.proved)
        }
        _ => None,
    };
    let proof = match folded {
        Some(p) => p,
        None => {
            let program = translate(parsed.unit.clone(), &opts, Stage::Normalised, |_, _| {})?;
            ladr_seq::prove::prove(&program)
        }
    };
    let position = |offset: usize| steps::position(&parsed.map.lookup(offset));
    let answer = ProofAnswer {
        proved: proof.proved,
        objects: proof
            .objects
            .iter()
            .map(|o| ObjectAnswer {
                object: o.name.clone(),
                safe: o.safe,
                rule: o.rule.into(),
                reason: o.reason.clone(),
                accesses: o
                    .pair
                    .iter()
                    .flat_map(|(a, b)| [position(a.offset), position(b.offset)])
                    .collect(),
            })
            .collect(),
        gave_up: proof
            .give_ups
            .iter()
            .map(|(reason, offset)| GiveUp {
                reason: reason.clone(),
                at: (*offset > 0).then(|| position(*offset)),
            })
            .collect(),
        time_s: t0.elapsed().as_secs_f64(),
        assumptions: proof
            .assumed_fresh
            .iter()
            .map(|f| crate::answer::assumption_text(f, AssumedResult::FreshObject))
            .collect(),
    };
    Ok((answer, proof.proved_objects))
}
