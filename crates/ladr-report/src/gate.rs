//! The result of `ladr check` and its rendering: the harnesses' outcomes, each race judged
//! (new, unchanged, suppressed), baseline races not found again and suppressions that
//! matched nothing, rendered as one JSON document ([`Gate::json`], its schema the types
//! below), one SARIF run ([`Gate::sarif`]) and the text report ([`Gate::text`],
//! [`Gate::table`]). `ladr-project` runs the harnesses and judges the races; this module
//! only renders.
//!
//! The JSON document's keys are sorted at every level (also inside each harness's
//! outcome): it is written through a `serde_json::Value`, whose maps are ordered by key.

use crate::{no_verdict, Outcome, Race, Suppression, Tool, TOOL};
use ladr_c::diag::visible;
use ladr_c::frontend::Parsed;
use serde::Serialize;
use serde_json::{json, Value};
use std::path::{Path, PathBuf};
use std::time::Duration;

/// Version of the gate's JSON schema.
pub const GATE_SCHEMA_VERSION: u32 = 1;

/// A race of the baseline: what ladr repeats of it (`ladr_project::baseline` bounds the
/// message and checks the fingerprint).
#[derive(Clone, Debug, PartialEq)]
pub struct Known {
    pub fingerprint: String,
    /// Its message, for reporting it absent.
    pub message: String,
}

/// One harness's run.
pub struct HarnessRun {
    pub name: String,
    pub files: Vec<PathBuf>,
    pub outcome: Outcome,
    /// The linked program (for the text report's source lines), when it was read.
    pub parsed: Option<Parsed>,
    pub wall: Duration,
    /// The outcome was read from the result cache, not checked now.
    pub cached: bool,
}

/// Whether a race was in the baseline.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum State {
    New,
    Unchanged,
}

impl State {
    /// SARIF's `baselineState`.
    pub fn name(self) -> &'static str {
        match self {
            State::New => "new",
            State::Unchanged => "unchanged",
        }
    }
}

/// A race of a harness, sorted.
#[derive(Clone, Debug)]
pub struct Judged {
    pub harness: usize,
    pub race: usize,
    pub state: State,
    pub suppression: Option<Suppression>,
}

impl Judged {
    /// Does this race fail the gate?
    pub fn fails(&self) -> bool {
        self.state == State::New && self.suppression.is_none()
    }
}

/// The result of a gate run.
pub struct Gate {
    pub config: PathBuf,
    pub runs: Vec<HarnessRun>,
    pub races: Vec<Judged>,
    /// Baseline races no harness found (empty without a baseline).
    pub absent: Vec<Known>,
    /// Suppressions that matched no race.
    pub stale: Vec<Suppression>,
    pub baseline: bool,
    pub wall: Duration,
}

impl Gate {
    /// The exit status (see the module header).
    pub fn status(&self) -> u8 {
        if self.races.iter().any(Judged::fails) {
            1
        } else if self.runs.iter().any(|r| no_verdict(&r.outcome)) {
            3
        } else {
            0
        }
    }

    fn race(&self, j: &Judged) -> &crate::Race {
        &self.runs[j.harness].outcome.races[j.race]
    }

    /// The groups (harness, group) of the races that fail the gate, in order: what the gate
    /// counts, one per bug.
    pub fn new_groups(&self) -> Vec<(usize, usize)> {
        let mut out = vec![];
        for j in self.races.iter().filter(|j| j.fails()) {
            let key = (j.harness, self.race(j).group);
            if !out.contains(&key) {
                out.push(key);
            }
        }
        out
    }

    /// The combined JSON document (schema in docs/gate.md, "JSON of ladr check").
    pub fn json(&self) -> String {
        let count = |f: &dyn Fn(&Judged) -> bool| self.races.iter().filter(|j| f(j)).count();
        let harnesses = self
            .runs
            .iter()
            .enumerate()
            .map(|(k, r)| HarnessDoc {
                cached: r.cached,
                files: r.files.iter().map(|f| f.display().to_string()).collect(),
                name: &r.name,
                outcome: r.outcome.with_races(
                    (0..r.outcome.races.len())
                        .map(|j| self.judged_race(k, j))
                        .collect(),
                ),
                wall_s: r.wall.as_secs_f64(),
            })
            .collect();
        render(&Document {
            absent: self.absent.iter().map(AbsentDoc::of).collect(),
            config: self.config.display().to_string(),
            refused: None,
            harnesses,
            schema: GATE_SCHEMA_VERSION,
            stale_suppressions: self.stale.iter().map(SuppressionDoc::of).collect(),
            status: self.status(),
            summary: Summary {
                absent: self.absent.len(),
                harnesses: self.runs.len(),
                new: count(&|j| j.fails()),
                no_verdict: self.runs.iter().filter(|r| no_verdict(&r.outcome)).count(),
                races: self.races.len(),
                stale_suppressions: self.stale.len(),
                suppressed: count(&|j| j.suppression.is_some()),
                unchanged: count(&|j| j.state == State::Unchanged && j.suppression.is_none()),
                wall_s: self.wall.as_secs_f64(),
            },
            tool: TOOL,
        })
    }

    /// Race `j` of harness `k` with the gate's judgement (every race is judged: [`Gate`]).
    fn judged_race(&self, k: usize, j: usize) -> JudgedRace<'_> {
        let race = &self.runs[k].outcome.races[j];
        let judged = self.races.iter().find(|x| x.harness == k && x.race == j);
        JudgedRace {
            race: Race {
                suppression: None,
                ..race.clone()
            },
            message: race_line(race),
            state: judged.map_or(State::New, |x| x.state).name(),
            suppression: judged
                .and_then(|x| x.suppression.as_ref())
                .map(SuppressionDoc::of),
        }
    }

    /// One SARIF run with the results of every harness: `suppressions` on suppressed races,
    /// `baselineState` with a baseline (absent races repeated from a SARIF baseline, or
    /// rebuilt from a JSON one), one invocation per harness.
    pub fn sarif(&self, root: &Path) -> Value {
        let mut results = vec![];
        let mut invocations = vec![];
        let mut base: Option<Value> = None;
        for (k, r) in self.runs.iter().enumerate() {
            let mut log = crate::sarif::sarif(&r.outcome, root);
            let run = &mut log["runs"][0];
            if let Some(rs) = run["results"].as_array() {
                for (j, res) in rs.iter().enumerate() {
                    let mut res = res.clone();
                    if let Some(judged) = self.races.iter().find(|x| x.harness == k && x.race == j)
                    {
                        if let Some(s) = &judged.suppression {
                            res["suppressions"] = json!([{
                                "kind": s.kind,
                                "status": "accepted",
                                "justification": s.justification,
                                "properties": {"at": s.at},
                            }]);
                        }
                        if self.baseline {
                            res["baselineState"] = json!(judged.state.name());
                        }
                    }
                    res["properties"]["harness"] = json!(r.name);
                    results.push(res);
                }
            }
            if let Some(inv) = run["invocations"].as_array() {
                for i in inv {
                    let mut i = i.clone();
                    i["properties"] = json!({
                        "harness": r.name,
                        "verdict": r.outcome.verdict,
                        "bounds": r.outcome.bounds,
                    });
                    invocations.push(i);
                }
            }
            if base.is_none() {
                base = Some(log);
            }
        }
        for a in &self.absent {
            // Rebuilt from fingerprint and message only (`baseline::known`).
            let mut res = {
                json!({
                    "ruleId": crate::sarif::RULE_ID,
                    "ruleIndex": 0,
                    "level": "error",
                    "message": {"text": if a.message.is_empty() { "A data race of the baseline".to_string() } else { a.message.clone() }},
                    "partialFingerprints": {crate::sarif::FINGERPRINT_KEY: a.fingerprint},
                })
            };
            res["baselineState"] = json!("absent");
            results.push(res);
        }
        let mut log = base.unwrap_or_else(|| json!({"runs": [{}]}));
        let run = &mut log["runs"][0];
        run["results"] = json!(results);
        run["invocations"] = json!(invocations);
        run["properties"] = json!({
            "config": self.config.display().to_string(),
            "staleSuppressions": self.stale.iter().map(|s| json!({"kind": s.kind, "at": s.at, "justification": s.justification})).collect::<Vec<_>>(),
        });
        log
    }

    /// The text report: new races in full (with their interleaving), one line for each
    /// other race, absent races and stale suppressions, and a table of the harnesses.
    pub fn text(&self, verbose: bool) -> String {
        let mut out = String::new();
        // One diagnostic per new group: its first race in full, the others folded under it.
        for (harness, group) in self.new_groups() {
            let r = &self.runs[harness];
            let races: Vec<crate::Race> = self
                .races
                .iter()
                .filter(|j| j.fails() && j.harness == harness)
                .map(|j| self.race(j))
                .filter(|race| race.group == group)
                .cloned()
                .collect();
            let one = Outcome {
                races,
                search: None,
                ..r.outcome.clone()
            };
            let pairs = match one.races.len() {
                1 => String::new(),
                k => format!(" ({k} racing pairs of one cause)"),
            };
            out.push_str(&format!("harness `{}`, new race{pairs}:\n", r.name));
            if let Some(p) = &r.parsed {
                out.push_str(crate::text::to_string(&one, p, verbose).trim_end());
                out.push('\n');
            } else {
                for race in &one.races {
                    out.push_str(&race_line(race));
                    out.push('\n');
                }
            }
            for race in &one.races {
                out.push_str(&format!("   = fingerprint: {}\n", race.fingerprint));
            }
            out.push('\n');
        }
        for j in self.races.iter().filter(|j| !j.fails()) {
            let r = &self.runs[j.harness];
            let race = self.race(j);
            let why = match &j.suppression {
                Some(s) => format!(
                    "suppressed ({} at {}: {})",
                    if s.kind == "inSource" {
                        "in source"
                    } else {
                        "config"
                    },
                    s.at,
                    s.justification
                ),
                None => "unchanged (in the baseline)".to_string(),
            };
            out.push_str(&format!(
                "{}: {} — {}\n",
                r.name,
                race_line(race),
                visible(&why)
            ));
        }
        for a in &self.absent {
            out.push_str(&format!(
                "absent (in the baseline, not found now): {} [{}]\n",
                visible(&a.message),
                visible(&a.fingerprint)
            ));
        }
        for s in &self.stale {
            out.push_str(&format!(
                "stale suppression at {} (matched no race): {}\n",
                visible(&s.at),
                visible(&s.justification)
            ));
        }
        for r in &self.runs {
            if let Some(e) = &r.outcome.error {
                let at = e
                    .location
                    .as_ref()
                    .map(|l| format!("{}:{}:{}: ", l.file, l.line, l.column))
                    .unwrap_or_default();
                out.push_str(&format!(
                    "{}: error: {}{}\n",
                    r.name,
                    visible(&at),
                    visible(&e.message)
                ));
            } else if let Some(reason) = &r.outcome.reason {
                out.push_str(&format!("{}: no verdict: {}\n", r.name, visible(reason)));
            }
        }
        if !out.is_empty() {
            out.push('\n');
        }
        out.push_str(&self.table());
        out
    }

    /// `--html DIR`'s pages: one per race (its harness's outcome with that race alone), by
    /// file name, and the index (the gate's result, the harnesses' verdicts, the races
    /// linking their pages).
    pub fn html(&self) -> (Vec<(String, String)>, String) {
        use crate::html::{IndexHarness, IndexRace};
        let mut pages = vec![];
        let mut races = vec![];
        for j in &self.races {
            let run = &self.runs[j.harness];
            let race = &run.outcome.races[j.race];
            let one = Outcome {
                races: vec![race.clone()],
                ..run.outcome.clone()
            };
            let name = page_name(&run.name, j.harness, j.race);
            pages.push((name.clone(), crate::html::html(&one)));
            let state = match &j.suppression {
                Some(_) => "suppressed",
                None => j.state.name(),
            };
            races.push(IndexRace {
                harness: run.name.clone(),
                page: name,
                text: race_line(race),
                state: state.to_string(),
            });
        }
        let harnesses: Vec<IndexHarness> = self
            .runs
            .iter()
            .enumerate()
            .map(|(k, r)| {
                let mine = || self.races.iter().filter(move |j| j.harness == k);
                IndexHarness {
                    name: r.name.clone(),
                    verdict: r.outcome.verdict.to_string(),
                    races: mine().count(),
                    new: mine().filter(|j| j.fails()).count(),
                    suppressed: mine().filter(|j| j.suppression.is_some()).count(),
                    bounds: format!("{}/{}", r.outcome.bounds.rounds, r.outcome.bounds.unwind),
                    time: format!(
                        "{:.1} s{}",
                        r.wall.as_secs_f64(),
                        if r.cached { " (cached)" } else { "" }
                    ),
                }
            })
            .collect();
        let table = self.table();
        let result = table.lines().last().unwrap_or_default();
        let index = crate::html::index(result, self.status() != 1, &harnesses, &races);
        (pages, index)
    }

    /// The summary table and the gate's result line.
    pub fn table(&self) -> String {
        let mut rows = vec![[
            "harness".to_string(),
            "verdict".into(),
            "races".into(),
            "new".into(),
            "suppressed".into(),
            "bounds".into(),
            "time".into(),
        ]];
        for (k, r) in self.runs.iter().enumerate() {
            let mine: Vec<&Judged> = self.races.iter().filter(|j| j.harness == k).collect();
            let o = &r.outcome;
            rows.push([
                r.name.clone(),
                o.verdict.to_string(),
                mine.len().to_string(),
                mine.iter().filter(|j| j.fails()).count().to_string(),
                mine.iter()
                    .filter(|j| j.suppression.is_some())
                    .count()
                    .to_string(),
                format!("{}/{}", o.bounds.rounds, o.bounds.unwind),
                format!(
                    "{:.1} s{}",
                    r.wall.as_secs_f64(),
                    if r.cached { " (cached)" } else { "" }
                ),
            ]);
        }
        let widths: Vec<usize> = (0..7)
            .map(|c| rows.iter().map(|r| r[c].chars().count()).max().unwrap_or(0))
            .collect();
        let mut out = String::new();
        for row in &rows {
            let cells: Vec<String> = row
                .iter()
                .zip(&widths)
                .map(|(c, w)| format!("{c:<w$}"))
                .collect();
            out.push_str(cells.join("  ").trim_end());
            out.push('\n');
        }
        let pairs = self.races.iter().filter(|j| j.fails()).count();
        let new = self.new_groups().len();
        let folded = match pairs > new {
            true => format!(" ({pairs} racing pairs)"),
            false => String::new(),
        };
        out.push_str(&match self.status() {
            1 => format!(
                "\nrace gate: FAILED, {new} new race{}{folded}\n",
                if new == 1 { "" } else { "s" }
            ),
            3 => "\nrace gate: no verdict for some harness (no new race found)\n".to_string(),
            _ => "\nrace gate: passed, no new race\n".to_string(),
        });
        out
    }
}

/// The file name of the page of race `race` of harness `harness`: the harness's name kept
/// to letters, digits, `-` and `_` (at most 40; the harness's number added when that changed
/// it), then the race's number, so it names a file in
/// DIR whatever the name is (`../../x`, `/abs/path` wrote pages outside DIR: issue 28).
fn page_name(harness_name: &str, harness: usize, race: usize) -> String {
    let safe: String = harness_name
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' || c == '_' {
                c
            } else {
                '_'
            }
        })
        .take(40)
        .collect();
    if safe == harness_name && !safe.is_empty() {
        format!("{safe}-{}.html", race + 1)
    } else {
        format!("{safe}-h{}-{}.html", harness + 1, race + 1)
    }
}

/// The gate's JSON document (docs/gate.md, "JSON of ladr check"); fields in key order.
#[derive(Serialize)]
struct Document<'a> {
    absent: Vec<AbsentDoc<'a>>,
    config: String,
    /// For a run that ended before any harness's answer: its `error`.
    #[serde(flatten)]
    refused: Option<Refused<'a>>,
    harnesses: Vec<HarnessDoc<'a>>,
    schema: u32,
    stale_suppressions: Vec<SuppressionDoc<'a>>,
    /// The exit status of `ladr check`.
    status: u8,
    summary: Summary,
    tool: Tool,
}

/// The `error` of a run that ended before any harness's answer (null: none).
#[derive(Serialize)]
struct Refused<'a> {
    error: Option<&'a crate::ErrorInfo>,
}

/// The counts of the gate's document.
#[derive(Serialize, Default)]
struct Summary {
    absent: usize,
    harnesses: usize,
    /// Races that fail the gate: new and not suppressed.
    new: usize,
    /// Harnesses without a verdict (`unknown`, `error`).
    no_verdict: usize,
    races: usize,
    stale_suppressions: usize,
    suppressed: usize,
    /// In the baseline and not suppressed.
    unchanged: usize,
    wall_s: f64,
}

/// One harness: its outcome with each race judged.
#[derive(Serialize)]
struct HarnessDoc<'a> {
    cached: bool,
    files: Vec<String>,
    name: &'a str,
    outcome: Outcome<JudgedRace<'a>>,
    wall_s: f64,
}

/// A race of a harness in the gate's document: the race, its one-line message, whether it
/// is new or unchanged, and the suppression that keeps it (null: none).
#[derive(Clone, Debug, Serialize)]
pub struct JudgedRace<'a> {
    /// The race (its own `suppression` left out: the gate's is below).
    #[serde(flatten)]
    race: Race,
    message: String,
    state: &'a str,
    suppression: Option<SuppressionDoc<'a>>,
}

/// A suppression as the gate's document shows it (in-source or config, where, why).
#[derive(Clone, Debug, Serialize)]
struct SuppressionDoc<'a> {
    at: &'a str,
    justification: &'a str,
    kind: &'a str,
}

impl SuppressionDoc<'_> {
    fn of(s: &Suppression) -> SuppressionDoc<'_> {
        SuppressionDoc {
            at: &s.at,
            justification: &s.justification,
            kind: &s.kind,
        }
    }
}

/// A baseline race not found again.
#[derive(Serialize)]
struct AbsentDoc<'a> {
    fingerprint: &'a str,
    message: &'a str,
}

impl AbsentDoc<'_> {
    fn of(k: &Known) -> AbsentDoc<'_> {
        AbsentDoc {
            fingerprint: &k.fingerprint,
            message: &k.message,
        }
    }
}

/// The document as indented JSON, its keys sorted at every level (schema 1's order).
fn render(doc: &Document) -> String {
    let value = serde_json::to_value(doc).expect("the gate's document always serialises");
    crate::sarif::to_string(&value)
}

/// The gate's document for a run that ended before any harness's answer: a configuration or
/// usage error (`status` 2), or an interruption (`status` 128 + the signal). `error` has the
/// shape of `ladr FILE`'s (`kind`, `message`, `location`, `notes`), from `outcome`.
pub fn error_json(config: &Path, outcome: &Outcome, status: u8) -> String {
    render(&Document {
        absent: vec![],
        config: config.display().to_string(),
        refused: Some(Refused {
            error: outcome.error.as_ref(),
        }),
        harnesses: vec![],
        schema: GATE_SCHEMA_VERSION,
        stale_suppressions: vec![],
        status,
        summary: Summary::default(),
        tool: TOOL,
    })
}

pub use crate::text::race_line;

#[cfg(test)]
mod tests {
    use super::*;
    use ladr_c::diag::{Error, ErrorKind};

    /// The refused run's document: schema 1's keys, sorted, `error` as `ladr FILE` has it.
    #[test]
    fn the_document_of_a_refused_run_keeps_its_keys_and_order() {
        let opts = ladr_ir::program::Options::default();
        let e = Error::new(ErrorKind::Usage, "no config `x.toml`");
        let outcome = crate::error_outcome("x.toml", &e, None, &opts);
        let doc = error_json(Path::new("x.toml"), &outcome, 2);
        let expected = format!(
            r#"{{
  "absent": [],
  "config": "x.toml",
  "error": {{
    "kind": "usage",
    "location": null,
    "message": "no config `x.toml`",
    "notes": []
  }},
  "harnesses": [],
  "schema": 1,
  "stale_suppressions": [],
  "status": 2,
  "summary": {{
    "absent": 0,
    "harnesses": 0,
    "new": 0,
    "no_verdict": 0,
    "races": 0,
    "stale_suppressions": 0,
    "suppressed": 0,
    "unchanged": 0,
    "wall_s": 0.0
  }},
  "tool": {{
    "name": "ladr",
    "version": "{}"
  }}
}}"#,
            env!("CARGO_PKG_VERSION")
        );
        assert_eq!(doc, expected);
    }
}
