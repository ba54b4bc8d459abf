//! The race check: translate, write the sequential program, run CBMC, read its verdict and
//! name the two racing accesses from the site ids in the counterexample.

use crate::cbmc;
use crate::diag::{Error, ErrorKind, Result};
use crate::frontend::source_map::Loc;
use crate::frontend::Parsed;
use crate::passes::race::{Site, R_SITE, W_SITE};
use crate::pipeline::{translate, Stage};
use crate::print::print_unit;
use crate::program::{CutKind, Options, Program, Slot};
use std::path::Path;
use std::time::{Duration, Instant};

/// One of the two racing accesses.
#[derive(Clone, Debug)]
pub struct Access {
    pub site: Site,
    pub loc: Loc,
    pub slot: Slot,
    /// Where the slot was created (none for main).
    pub created_at: Option<Loc>,
}

#[derive(Clone, Debug)]
pub enum Verdict {
    /// `first` (the write ending context C1) and `second` (the first access of C2) race.
    Race {
        first: Box<Access>,
        second: Box<Access>,
    },
    NoRace,
    Unknown {
        reason: String,
    },
}

#[derive(Clone, Debug, Default)]
pub struct Stats {
    pub translate: Duration,
    pub cbmc: Duration,
    pub variables: Option<u64>,
    pub clauses: Option<u64>,
    pub slots: usize,
    pub visible: u32,
}

pub struct Report {
    pub verdict: Verdict,
    pub stats: Stats,
    /// Kinds of bound cuts in the program (a "no race" holds only up to them).
    pub cuts: Vec<CutKind>,
    pub program: Program,
    pub trace: Vec<cbmc::Step>,
    /// The printer's line map of the sequential program (input span per output line).
    pub origins: Vec<lang_c::span::Span>,
}

/// Translates `parsed` and checks it with CBMC.
pub fn check(
    parsed: &Parsed,
    opts: &Options,
    cbmc_opts: &cbmc::Options,
    keep: Option<&Path>,
) -> Result<Report> {
    let t0 = Instant::now();
    let program = translate(parsed.unit.clone(), opts, Stage::Seq, |_, _| {})?;
    let printed = print_unit(&program.unit);
    let translate_time = t0.elapsed();
    let dir = tempfile::Builder::new()
        .prefix("ladr-")
        .tempdir()
        .map_err(|e| {
            Error::new(
                ErrorKind::Backend,
                format!("cannot create a temporary directory: {e}"),
            )
        })?;
    let seq = dir.path().join("seq.i");
    std::fs::write(&seq, &printed.text).map_err(|e| {
        Error::new(
            ErrorKind::Backend,
            format!("cannot write {}: {e}", seq.display()),
        )
    })?;
    let outcome =
        cbmc::run(cbmc_opts, &seq).map_err(|e| Error::new(ErrorKind::Backend, e.to_string()))?;
    if let Some(k) = keep {
        let _ = std::fs::create_dir_all(k);
        let _ = std::fs::write(k.join("seq.i"), &printed.text);
        let _ = std::fs::write(k.join("cbmc.json"), &outcome.stdout);
        let _ = std::fs::write(k.join("cbmc.stderr"), &outcome.stderr);
    }
    let mut stats = Stats {
        translate: translate_time,
        cbmc: outcome.wall,
        variables: outcome.formula.map(|f| f.variables),
        clauses: outcome.formula.map(|f| f.clauses),
        slots: program.slots.len(),
        visible: program.code.iter().map(|c| c.size).sum(),
    };
    stats.slots = program.slots.len();
    let mut trace = vec![];
    let verdict = match outcome.verdict {
        cbmc::Verdict::Verified => Verdict::NoRace,
        cbmc::Verdict::Unknown { reason } => Verdict::Unknown {
            reason: if outcome.timed_out {
                "CBMC ran out of time".into()
            } else {
                reason
            },
        },
        cbmc::Verdict::Violated { trace: t, .. } => {
            let w = last_value(&t, W_SITE);
            let r = last_value(&t, R_SITE);
            trace = t;
            match (w, r) {
                (Some(w), Some(r)) => {
                    let access = |id: u32| -> Option<Box<Access>> {
                        let site = program.sites.get(id as usize)?.clone();
                        let slot = program.slots.get(site.slot)?.clone();
                        Some(Box::new(Access {
                            loc: parsed.map.lookup(site.span.start),
                            created_at: slot.created_at.map(|s| parsed.map.lookup(s.start)),
                            site,
                            slot,
                        }))
                    };
                    match (access(w), access(r)) {
                        (Some(first), Some(second)) => Verdict::Race { first, second },
                        _ => Verdict::Unknown {
                            reason: format!(
                                "CBMC's counterexample names unknown access sites {w} and {r}"
                            ),
                        },
                    }
                }
                _ => Verdict::Unknown {
                    reason: "CBMC's counterexample does not name the racing accesses".into(),
                },
            }
        }
    };
    let mut cuts: Vec<CutKind> = program.cuts.iter().map(|c| c.kind).collect();
    cuts.sort_by_key(|c| *c as u8);
    cuts.dedup();
    Ok(Report {
        verdict,
        stats,
        cuts,
        program,
        trace,
        origins: printed.origins,
    })
}

/// The last value CBMC assigned to global `name` in the trace.
fn last_value(trace: &[cbmc::Step], name: &str) -> Option<u32> {
    trace
        .iter()
        .rev()
        .filter(|s| s.kind == "assignment" && s.lhs.as_deref() == Some(name))
        .find_map(|s| {
            s.value
                .as_deref()
                .and_then(|v| v.trim().parse::<u32>().ok())
        })
}
