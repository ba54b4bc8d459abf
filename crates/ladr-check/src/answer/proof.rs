//! What the static race proof (`crate::proof`) says of the program, in the user's terms:
//! per shared object, safe or not and by which rule, and what the analysis gave up on.

use super::{Position, Word};
use serde::{Deserialize, Serialize};

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
    /// What the proof assumes of functions without a body (as the bounded check does).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub assumptions: Vec<String>,
}

#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct ObjectAnswer {
    pub object: String,
    pub safe: bool,
    /// `main-alone`, `read-only`, `one-thread`, `barrier`, `lock`, `element-lock`,
    /// `atomic-section`, `atomic`, `disjoint`, `rwlock`, `per-pair`, or `unproved`.
    pub rule: Word,
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
