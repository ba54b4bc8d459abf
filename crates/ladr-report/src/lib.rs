//! What a check found, in the user's terms, rendered: one document ([`Outcome`], the
//! `ladr_check::Answer` with its envelope: schema version, input, tool, time limit, and each
//! race's fingerprint) feeds every output format: the terminal ([`text`]), JSON (this model
//! serialised with serde; the whole schema is these types and the answer's, documented in the
//! docs/output.md), SARIF ([`sarif`]), HTML ([`html`]) and the SV-COMP violation witnesses
//! ([`witness`], [`yaml_witness`]).
//!
//! Architecture invariant: this crate runs no check and no CBMC, and reads no trace: it
//! renders a finished `ladr_check::Answer` (and the user's sources, to quote them). Only
//! here (and in `ladr-eval`) is JSON written.

pub mod gate;
pub mod groups;
pub mod html;
pub mod locks;
pub mod proof;
pub mod sarif;
pub mod schedule;
pub mod text;
pub mod witness;
pub mod yaml_witness;

pub use ladr_check::{
    AccessInfo, Bounds, Context, LockHeld, Position, Search, Stats, StepInfo, Thread, Value,
};

use ladr_c::diag::{Error, ErrorKind};
use ladr_c::source_map::{Loc, SourceMap};
use ladr_check::Answer;
use ladr_check::Word;
use ladr_ir::program::Options;
use serde::{Deserialize, Serialize};

/// Version of the JSON schema below; bumped on incompatible changes.
/// 2: `races` (every race found, each with its interleaving) replaced `race`; `search`.
pub const SCHEMA_VERSION: u32 = 2;

/// The document of one check. `R` is the type of its races: [`Race`], except in the gate's
/// document, whose races carry the gate's judgement ([`gate::JudgedRace`]).
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Outcome<R = Race> {
    pub schema: u32,
    /// `race`, `no-race`, `unknown` (no verdict: timeout, CBMC failure) or `error` (input
    /// ladr cannot check, or a usage error found after the command line was read).
    pub verdict: Word,
    /// The static analysis proved the program race-free: "no race" in every execution,
    /// whatever the bounds say (they were not used).
    #[serde(default)]
    pub proved: bool,
    /// Why the static analysis proved the program race-free, or could not, per shared
    /// object (`--explain-proof`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub proof: Option<ladr_check::ProofAnswer>,
    /// The proof in a few words, for the text (when `proved`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub proof_summary: Option<String>,
    /// Why there is no verdict (for `unknown` and `error`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// For `error`: the diagnostic.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<ErrorInfo>,
    pub input: String,
    pub bounds: Bounds,
    /// The time limit of the whole check in seconds (null: none).
    pub time_limit_s: Option<f64>,
    /// The races found, in the order found (empty unless the verdict is `race`).
    pub races: Vec<R>,
    /// How the search for races ended (absent for `error`, and for an outcome of one check).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub search: Option<Search>,
    /// What the verdict takes for granted about functions without a body whose results the
    /// program uses ("the result of `foo` (no body) is any value of its type"); absent when
    /// none.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub assumptions: Vec<String>,
    pub stats: Stats,
    /// (A cached outcome is this ladr's: the cache key holds the version.)
    #[serde(skip_deserializing, default = "tool")]
    pub tool: Tool,
    /// What every bound pair of the deepening schedule gave (`ladr FILE`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub deepening: Option<schedule::DeepeningDoc>,
    /// What each swarm instance gave (`ladr swarm collect`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub swarm: Option<schedule::SwarmDoc>,
}

impl Outcome {
    /// This outcome with other races (each field but `races` copied).
    pub fn with_races<R>(&self, races: Vec<R>) -> Outcome<R> {
        Outcome {
            schema: self.schema,
            verdict: self.verdict.clone(),
            proved: self.proved,
            proof: self.proof.clone(),
            proof_summary: self.proof_summary.clone(),
            reason: self.reason.clone(),
            error: self.error.clone(),
            input: self.input.clone(),
            bounds: self.bounds.clone(),
            time_limit_s: self.time_limit_s,
            races,
            search: self.search.clone(),
            assumptions: self.assumptions.clone(),
            stats: self.stats.clone(),
            tool: self.tool.clone(),
            deepening: self.deepening.clone(),
            swarm: self.swarm.clone(),
        }
    }
}

/// A diagnostic in the user's terms (`verdict: "error"`, or `unknown` from the back end).
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct ErrorInfo {
    /// `usage`, `syntax`, `unsupported`, `backend`, `internal`, `resources` or
    /// `interrupted` (a signal stopped the run; the verdict is `unknown`).
    pub kind: Word,
    pub message: String,
    /// Where, when the diagnostic has a place in the user's source.
    pub location: Option<Position>,
    pub notes: Vec<String>,
}

#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Race {
    /// [first, second]: the write that ends context C1, the access that begins C2.
    pub accesses: [AccessInfo; 2],
    /// Identifies the race across runs and edits elsewhere (SARIF's `ladrRace/v1`, see
    /// [`sarif::fingerprint`]): what a baseline compares.
    pub fingerprint: String,
    /// The race's group (from 1): races of one root cause share it ([`groups`]).
    pub group: usize,
    pub interleaving: Vec<Context>,
    /// Why the race does not count (`ladr FILE`: an in-source `ladr: allow(data-race)`
    /// comment; `ladr check` also `[[allow]]`); absent when it counts.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub suppression: Option<Suppression>,
}

/// A race kept on purpose: listed, never failing (exit 0 when every race is suppressed).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Suppression {
    /// SARIF's `suppression.kind`: `inSource` (a comment) or `external` (`ladr.toml`).
    pub kind: Word,
    /// The reason written with it (required).
    pub justification: String,
    /// Where it is written (`file:line`).
    pub at: String,
}

#[derive(Clone, Debug, Serialize)]
pub struct Tool {
    pub name: &'static str,
    pub version: &'static str,
}

fn tool() -> Tool {
    TOOL
}

pub const TOOL: Tool = Tool {
    name: "ladr",
    version: env!("CARGO_PKG_VERSION"),
};

/// The outcome has no verdict: `unknown` (no answer: timeout, CBMC failure) or `error`.
pub fn no_verdict(o: &Outcome) -> bool {
    matches!(o.verdict.as_str(), "unknown" | "error")
}

/// The JSON document of `--format json`: the outcome serialised (schema in docs/output.md).
pub fn json(o: &Outcome) -> String {
    serde_json::to_string_pretty(o).expect("an Outcome always serialises")
}

/// The outcome of a check that ended with an error before a verdict: `error` for input
/// ladr cannot check and usage errors (exit 2), `unknown` for a back-end failure (exit 3).
/// `map` locates the error's span (the error's own map, for syntax errors, comes first).
pub fn error_outcome(input: &str, e: &Error, map: Option<&SourceMap>, opts: &Options) -> Outcome {
    let backend = e.kind.no_verdict();
    let location = map
        .or(e.source.as_deref())
        .and_then(|m| e.loc(m))
        .map(|l| position(&l));
    Outcome {
        schema: SCHEMA_VERSION,
        verdict: Word::new(if backend { "unknown" } else { "error" }),
        proved: false,
        proof: None,
        proof_summary: None,
        reason: Some(e.message.clone()),
        error: Some(ErrorInfo {
            kind: Word::new(match e.kind {
                ErrorKind::Usage => "usage",
                ErrorKind::Syntax => "syntax",
                ErrorKind::Unsupported => "unsupported",
                ErrorKind::Backend => "backend",
                ErrorKind::Internal => "internal",
                ErrorKind::Resources => "resources",
            }),
            message: e.message.clone(),
            location,
            notes: e.notes.clone(),
        }),
        input: input.to_string(),
        time_limit_s: None,
        bounds: Bounds::uncut(opts),
        races: vec![],
        search: None,
        assumptions: vec![],
        stats: Stats::default(),
        tool: TOOL,
        deepening: None,
        swarm: None,
    }
}

/// The outcome of a run stopped by `signal` (SIGINT, SIGTERM, SIGHUP) before its answer:
/// verdict `unknown`, an `error` of kind `interrupted`.
pub fn interrupted_outcome(input: &str, signal: i32, opts: &Options) -> Outcome {
    let name = match signal {
        1 => "SIGHUP".to_string(),
        2 => "SIGINT".to_string(),
        15 => "SIGTERM".to_string(),
        n => format!("signal {n}"),
    };
    let message = format!("interrupted by {name} before an answer");
    let mut o = error_outcome(input, &Error::new(ErrorKind::Backend, message), None, opts);
    if let Some(e) = &mut o.error {
        e.kind = Word::new("interrupted");
    }
    o
}

/// The document of `answer`, a check of `input`; `parse_time` (seconds spent reading the
/// input) counts in its translation time. Each race gets its fingerprint, its files taken
/// relative to the input's directory ([`sarif::root`]).
pub fn outcome(answer: &Answer, input: &std::path::Path, parse_time: f64) -> Outcome {
    let root = sarif::root(input);
    let mut races: Vec<Race> = answer
        .races
        .iter()
        .map(|r| {
            let mut race = Race {
                accesses: r.accesses.clone(),
                fingerprint: String::new(),
                group: 0,
                interleaving: r.interleaving.clone(),
                suppression: None,
            };
            race.fingerprint = sarif::race_fingerprint(&race, &root);
            race
        })
        .collect();
    let assigned = groups::assign(&races);
    for (race, group) in races.iter_mut().zip(assigned) {
        race.group = group;
    }
    let (verdict, reason) = match &answer.verdict {
        ladr_check::Verdict::Unknown { reason } => ("unknown", Some(reason.clone())),
        v => (v.name(), None),
    };
    Outcome {
        schema: SCHEMA_VERSION,
        verdict: verdict.into(),
        proved: answer.proved(),
        proof: None,
        proof_summary: answer
            .proof
            .as_ref()
            .filter(|p| p.proved)
            .map(proof::summary),
        reason,
        error: None,
        input: input.display().to_string(),
        time_limit_s: None,
        bounds: answer.bounds.clone(),
        races,
        search: answer.search.clone(),
        assumptions: answer.assumptions.clone(),
        stats: Stats {
            translate_s: parse_time + answer.stats.translate_s,
            ..answer.stats.clone()
        },
        tool: TOOL,
        deepening: None,
        swarm: None,
    }
}

fn position(l: &Loc) -> Position {
    Position {
        file: l.file.clone(),
        line: l.line,
        column: l.column,
    }
}
