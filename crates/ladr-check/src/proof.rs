//! The static race proof (`ladr_seq::prove`, issue 30) in the user's terms: run on the
//! normalised program before any bounded check; when it proves every pair, the check's
//! answer is "no data race in any execution" and CBMC never runs.

use crate::answer::{trace, Position};
use ladr_c::diag::Result;
use ladr_c::frontend::Parsed;
use ladr_ir::program::Options;
use ladr_seq::pipeline::{translate, Stage};
use serde::{Deserialize, Serialize};
use std::time::Instant;

/// What the static analysis says of the whole program.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct ProofAnswer {
    /// Every pair of accesses of shared memory cannot race, in any execution.
    pub proved: bool,
    /// Per shared object (accessed while threads may run): why it is safe, or why the
    /// analysis could not show it.
    pub objects: Vec<ObjectAnswer>,
    /// What the analysis did not understand (then no object is judged).
    pub gave_up: Vec<GiveUp>,
    /// Seconds the analysis took (normalising included).
    pub time_s: f64,
}

#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct ObjectAnswer {
    pub object: String,
    pub safe: bool,
    /// `main-alone`, `read-only`, `one-thread`, `lock`, `atomic-section`, `atomic`,
    /// `per-pair`, or `unproved`.
    pub rule: crate::answer::Word,
    pub reason: String,
    /// For an object not proved: the two accesses that may race.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub accesses: Vec<Position>,
}

#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct GiveUp {
    pub reason: String,
    pub at: Option<Position>,
}

impl ProofAnswer {
    /// The reasons in one line each: `x: every access … holds `m``.
    pub fn lines(&self) -> Vec<String> {
        let at = |p: &Position| format!("{}:{}:{}", p.file, p.line, p.column);
        let mut out: Vec<String> = self
            .gave_up
            .iter()
            .map(|g| match &g.at {
                Some(p) => format!("gave up: {} ({})", g.reason, at(p)),
                None => format!("gave up: {}", g.reason),
            })
            .collect();
        for o in &self.objects {
            let places: Vec<String> = o.accesses.iter().map(at).collect();
            let tail = if places.is_empty() {
                String::new()
            } else {
                format!(" ({})", places.join(", "))
            };
            out.push(format!(
                "{} `{}`: {}{}",
                if o.safe { "safe" } else { "not proved" },
                o.object,
                o.reason,
                tail
            ));
        }
        out
    }

    /// The proof in a few words, for the "no race" sentence: the rules used.
    pub fn summary(&self) -> String {
        let n = self.objects.len();
        if n == 0 {
            return "no object is accessed while threads run".into();
        }
        let mut rules: Vec<(&str, usize)> = vec![];
        for o in &self.objects {
            match rules.iter_mut().find(|(r, _)| o.rule == *r) {
                Some(r) => r.1 += 1,
                None => rules.push((&o.rule, 1)),
            }
        }
        let parts: Vec<String> = rules.iter().map(|(r, k)| format!("{k} {r}")).collect();
        format!(
            "{n} shared object{}: {}; --explain-proof says why",
            if n == 1 { "" } else { "s" },
            parts.join(", ")
        )
    }
}

/// Runs the static analysis on `parsed` (normalised with `opts`).
pub fn prove(parsed: &Parsed, opts: &Options) -> Result<ProofAnswer> {
    let t0 = Instant::now();
    let program = translate(parsed.unit.clone(), opts, Stage::Normalised, |_, _| {})?;
    let proof = ladr_seq::prove::prove(&program);
    let position = |offset: usize| trace::position(&parsed.map.lookup(offset));
    Ok(ProofAnswer {
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
    })
}
