//! `ladr check`: every harness of a `ladr.toml`, `jobs` at a time, then the races sorted
//! into new, unchanged (in the baseline) and suppressed, with one combined JSON document and
//! one combined SARIF run.
//!
//! ```text
//! ladr.toml ─▶ Config ─▶ for each harness (threads, `jobs` at a time):
//!                          compdb::inputs ─▶ link::load_all ─▶ check ─▶ Outcome
//!           ─▶ each race: fingerprint, suppression (suppress), state (baseline) ─▶ Gate
//! ```
//!
//! Exit status of the gate ([`Gate::status`]): 1 if any new race that is not suppressed,
//! else 3 if any harness ended without a verdict (unknown, or an error in its input), else
//! 0. Configuration errors are found before anything runs (exit 2, by the caller).

use crate::baseline::Known;
use crate::cache::Cache;
use crate::compdb::{self, Database};
use crate::config::{Config, Harness};
use crate::suppress::{self, Sources, Suppression};
use ladr_c::diag::{visible, Error, ErrorKind};
use ladr_c::frontend::{link, Parsed};
use ladr_check::{Phase, Request};
use ladr_ir::program::Options;
use ladr_report::{self as report, Outcome};
use serde_json::{json, Value};
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// Stack of each harness's thread (as for `ladr FILE`: deep programs recurse deeply).
const STACK: usize = 256 << 20;

/// How a gate run is done.
pub struct RunOptions {
    /// The CBMC binary.
    pub cbmc: PathBuf,
    /// Harnesses run at the same time.
    pub jobs: usize,
    /// The baseline's races, if one was given.
    pub baseline: Option<Vec<Known>>,
    /// The result cache (none: every harness is checked, nothing kept).
    pub cache: Option<Cache>,
}

/// What happens, for a progress display: a harness starts, or ends.
pub enum Event<'a> {
    Started(&'a str),
    Phase(&'a str, Phase, u32, u32),
    Finished(&'a HarnessRun),
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

/// The harnesses named (all when `names` is empty); an unknown name is a usage error.
pub fn select<'c>(config: &'c Config, names: &[String]) -> Result<Vec<&'c Harness>, Error> {
    if names.is_empty() {
        return Ok(config.harnesses.iter().collect());
    }
    names
        .iter()
        .map(|n| {
            config
                .harnesses
                .iter()
                .find(|h| h.name == *n)
                .ok_or_else(|| {
                    let known: Vec<&str> =
                        config.harnesses.iter().map(|h| h.name.as_str()).collect();
                    Error::new(
                        ErrorKind::Usage,
                        format!(
                            "no harness `{n}` in `{}` (it has: {})",
                            config.path.display(),
                            known.join(", ")
                        ),
                    )
                })
        })
        .collect()
}

/// Runs `harnesses` of `config` and judges their races.
pub fn run(
    config: &Config,
    harnesses: &[&Harness],
    opts: &RunOptions,
    progress: &(dyn Fn(Event) + Sync),
) -> Result<Gate, Error> {
    let start = Instant::now();
    let db = database(config)?;
    // Library mode: an `entries = "auto"` harness is one harness per pair.
    let expanded = crate::library::expand(harnesses, db.as_ref());
    let harnesses: &[&Harness] = &expanded.iter().collect::<Vec<_>>();
    let next = AtomicUsize::new(0);
    let done: Mutex<Vec<Option<HarnessRun>>> =
        Mutex::new((0..harnesses.len()).map(|_| None).collect());
    std::thread::scope(|scope| {
        for _ in 0..opts.jobs.clamp(1, harnesses.len().max(1)) {
            let work = || loop {
                let k = next.fetch_add(1, Ordering::SeqCst);
                let Some(h) = harnesses.get(k) else {
                    break;
                };
                progress(Event::Started(&h.name));
                let r = run_harness(h, db.as_ref(), opts, &|phase, r, u| {
                    progress(Event::Phase(&h.name, phase, r, u))
                });
                progress(Event::Finished(&r));
                if let Ok(mut d) = done.lock() {
                    d[k] = Some(r);
                }
            };
            let spawned = std::thread::Builder::new()
                .name("harness".into())
                .stack_size(STACK)
                .spawn_scoped(scope, work);
            if spawned.is_err() {
                break;
            }
        }
    });
    let runs: Vec<HarnessRun> = done
        .into_inner()
        .unwrap_or_default()
        .into_iter()
        .zip(harnesses)
        .map(|(r, h)| {
            r.unwrap_or_else(|| {
                let e = Error::new(
                    ErrorKind::Internal,
                    "internal error: the harness's check failed",
                );
                failed(h, &e)
            })
        })
        .collect();
    Ok(judge(
        config,
        runs,
        opts.baseline.as_deref(),
        start.elapsed(),
    ))
}

/// The config's compile database, if it names one (its includes checked to stay within
/// the config's directory).
pub fn database(config: &Config) -> Result<Option<Database>, Error> {
    match &config.compile_commands {
        Some(p) => {
            let db = Database::load(p)?;
            db.check_includes_within(&config.root)?;
            Ok(Some(db))
        }
        None => Ok(None),
    }
}

/// Preprocesses, parses and links the files of `h` into its program.
pub fn prepare(h: &Harness, db: Option<&Database>) -> Result<Parsed, Error> {
    link::load_all(&compdb::inputs(&h.files, db, &h.flags))
}

/// Whether `h` reads a file of `changed` (absolute, normalised paths: `changes::since`):
/// one of its files or a file they include. A harness that cannot be read counts as
/// changed (its error is then reported).
pub fn touched(h: &Harness, db: Option<&Database>, changed: &BTreeSet<PathBuf>) -> bool {
    use crate::changes::normal;
    if h.files.iter().any(|f| changed.contains(&normal(f))) {
        return true;
    }
    match prepare(h, db) {
        Ok(p) => p
            .map
            .files()
            .iter()
            .any(|f| changed.contains(&normal(Path::new(f)))),
        Err(_) => true,
    }
}

/// Links and checks one harness (every race, or its `max-races`), or reads its outcome
/// from the result cache.
pub fn run_harness(
    h: &Harness,
    db: Option<&Database>,
    run: &RunOptions,
    progress: &(dyn Fn(Phase, u32, u32) + Sync),
) -> HarnessRun {
    let t0 = Instant::now();
    let opts = options(h);
    let parsed = match prepare(h, db) {
        Ok(p) => p,
        Err(e) => return failed(h, &e),
    };
    let (parsed, assumptions) = match crate::library::apply(h, &parsed) {
        Ok(Some(p)) => p,
        Ok(None) => (parsed, vec![]),
        Err(e) => {
            let run = failed_in(h, &e, Some(&parsed.map));
            return HarnessRun {
                parsed: Some(parsed),
                wall: t0.elapsed(),
                ..run
            };
        }
    };
    let parse_time = t0.elapsed().as_secs_f64();
    // Suppression comments need a reason also in the headers the harness includes.
    let dirs: Vec<PathBuf> = h
        .files
        .iter()
        .filter_map(|f| f.parent())
        .map(Path::to_path_buf)
        .collect();
    let own = parsed.map.files().iter().map(String::as_str);
    if let Err(e) = suppress::check_reasons(own.filter(|f| suppress::under(f, &dirs))) {
        return failed(h, &e);
    }
    let key = Cache::key(&parsed.text, h, &run.cbmc);
    if let Some(outcome) = run.cache.as_ref().and_then(|c| c.get(&key)) {
        return HarnessRun {
            name: h.name.clone(),
            files: h.files.clone(),
            outcome,
            parsed: Some(parsed),
            wall: t0.elapsed(),
            cached: true,
        };
    }
    let mut copts = ladr_cbmc::Options::new(run.cbmc.clone());
    copts.ilp32 = h.ilp32;
    let limit = h.timeout.map(Duration::from_secs_f64);
    copts.timeout = limit;
    let request = Request {
        deadline: limit.map(|l| t0 + l),
        deepen_steps: if h.deepen { 6 } else { 0 },
        max_races: h.max_races.map(|m| m as usize),
        ..Request::new(opts.clone(), copts)
    };
    let found = ladr_check::check(&parsed, &request, &|phase, b: &Options| {
        progress(phase, b.rounds, b.unwind)
    });
    let mut outcome = match found {
        Ok(mut answer) => {
            answer.assumptions.splice(0..0, assumptions);
            report::outcome(&answer, &parsed.path, parse_time)
        }
        Err(e) => report::error_outcome(
            &h.files[0].display().to_string(),
            &e,
            Some(&parsed.map),
            &opts,
        ),
    };
    outcome.time_limit_s = h.timeout;
    if let Some(cache) = &run.cache {
        cache.put(&key, &outcome);
    }
    HarnessRun {
        name: h.name.clone(),
        files: h.files.clone(),
        outcome,
        parsed: Some(parsed),
        wall: t0.elapsed(),
        cached: false,
    }
}

fn options(h: &Harness) -> Options {
    Options {
        rounds: h.rounds,
        unwind: h.unwind,
        ..Options::default()
    }
}

fn failed(h: &Harness, e: &Error) -> HarnessRun {
    failed_in(h, e, e.source.as_deref())
}

/// [`failed`] with the error located in `map`.
fn failed_in(h: &Harness, e: &Error, map: Option<&ladr_c::source_map::SourceMap>) -> HarnessRun {
    let mut outcome = report::error_outcome(&h.files[0].display().to_string(), e, map, &options(h));
    outcome.time_limit_s = h.timeout;
    HarnessRun {
        name: h.name.clone(),
        files: h.files.clone(),
        outcome,
        parsed: None,
        wall: Duration::ZERO,
        cached: false,
    }
}

/// Sorts every race: suppressed or not, new or unchanged; finds absent baseline races and
/// stale suppressions.
pub fn judge(
    config: &Config,
    runs: Vec<HarnessRun>,
    baseline: Option<&[Known]>,
    wall: Duration,
) -> Gate {
    let mut sources = Sources::default();
    let mut races = vec![];
    let mut used: BTreeSet<String> = BTreeSet::new();
    let mut found: BTreeSet<&str> = BTreeSet::new();
    for (k, r) in runs.iter().enumerate() {
        for (j, race) in r.outcome.races.iter().enumerate() {
            let [a, b] = &race.accesses;
            let suppression = suppress::find(
                &[a, b],
                [a.function.as_deref(), b.function.as_deref()],
                &race.fingerprint,
                &mut sources,
                &config.allows,
            );
            if let Some(s) = &suppression {
                used.insert(s.at.clone());
            }
            let state = match baseline {
                Some(known) if known.iter().any(|x| x.fingerprint == race.fingerprint) => {
                    State::Unchanged
                }
                _ => State::New,
            };
            found.insert(&race.fingerprint);
            races.push(Judged {
                harness: k,
                race: j,
                state,
                suppression,
            });
        }
    }
    let absent: Vec<Known> = baseline
        .unwrap_or_default()
        .iter()
        .filter(|x| !found.contains(x.fingerprint.as_str()))
        .cloned()
        .collect();
    // Stale in-source suppressions: in the harnesses' own files under the config's root.
    let mut files: BTreeSet<String> = BTreeSet::new();
    for r in &runs {
        if let Some(p) = &r.parsed {
            files.extend(p.map.files().iter().cloned());
        }
    }
    let root =
        ladr_report::sarif::absolute(&config.root, &std::env::current_dir().unwrap_or_default());
    let stale = suppress::stale(&files, &used, &config.allows, &mut sources, &root);
    Gate {
        config: config.path.clone(),
        runs,
        races,
        absent,
        stale,
        baseline: baseline.is_some(),
        wall,
    }
}

impl Gate {
    /// The exit status (see the module header).
    pub fn status(&self) -> u8 {
        if self.races.iter().any(Judged::fails) {
            1
        } else if self
            .runs
            .iter()
            .any(|r| matches!(r.outcome.verdict.as_str(), "unknown" | "error"))
        {
            3
        } else {
            0
        }
    }

    fn race(&self, j: &Judged) -> &report::Race {
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
    pub fn json(&self) -> Value {
        let harnesses: Vec<Value> = self
            .runs
            .iter()
            .enumerate()
            .map(|(k, r)| {
                let mut outcome = serde_json::to_value(&r.outcome).unwrap_or(Value::Null);
                if let Some(races) = outcome.get_mut("races").and_then(Value::as_array_mut) {
                    for (j, race) in races.iter_mut().enumerate() {
                        let Some(judged) = self.races.iter().find(|x| x.harness == k && x.race == j) else {
                            continue;
                        };
                        race["state"] = json!(judged.state.name());
                        race["message"] = json!(race_line(self.race(judged)));
                        race["suppression"] = match &judged.suppression {
                            Some(s) => json!({"kind": s.kind, "justification": s.justification, "at": s.at}),
                            None => Value::Null,
                        };
                    }
                }
                json!({
                    "name": r.name,
                    "files": r.files.iter().map(|f| f.display().to_string()).collect::<Vec<_>>(),
                    "wall_s": r.wall.as_secs_f64(),
                    "cached": r.cached,
                    "outcome": outcome,
                })
            })
            .collect();
        let count = |f: &dyn Fn(&Judged) -> bool| self.races.iter().filter(|j| f(j)).count();
        json!({
            "schema": 1,
            "tool": report::TOOL,
            "config": self.config.display().to_string(),
            "status": self.status(),
            "summary": {
                "harnesses": self.runs.len(),
                "no_verdict": self.runs.iter().filter(|r| matches!(r.outcome.verdict.as_str(), "unknown" | "error")).count(),
                "races": self.races.len(),
                "new": count(&|j| j.fails()),
                "unchanged": count(&|j| j.state == State::Unchanged && j.suppression.is_none()),
                "suppressed": count(&|j| j.suppression.is_some()),
                "absent": self.absent.len(),
                "stale_suppressions": self.stale.len(),
                "wall_s": self.wall.as_secs_f64(),
            },
            "harnesses": harnesses,
            "absent": self.absent.iter().map(|k| json!({"fingerprint": k.fingerprint, "message": k.message})).collect::<Vec<_>>(),
            "stale_suppressions": self.stale.iter().map(|s| json!({"kind": s.kind, "justification": s.justification, "at": s.at})).collect::<Vec<_>>(),
        })
    }

    /// One SARIF run with the results of every harness: `suppressions` on suppressed races,
    /// `baselineState` with a baseline (absent races repeated from a SARIF baseline, or
    /// rebuilt from a JSON one), one invocation per harness.
    pub fn sarif(&self, root: &Path) -> Value {
        let mut results = vec![];
        let mut invocations = vec![];
        let mut base: Option<Value> = None;
        for (k, r) in self.runs.iter().enumerate() {
            let mut log = report::sarif::sarif(&r.outcome, root);
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
                    "ruleId": report::sarif::RULE_ID,
                    "ruleIndex": 0,
                    "level": "error",
                    "message": {"text": if a.message.is_empty() { "A data race of the baseline".to_string() } else { a.message.clone() }},
                    "partialFingerprints": {report::sarif::FINGERPRINT_KEY: a.fingerprint},
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
            let races: Vec<report::Race> = self
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
                out.push_str(report::text::to_string(&one, p, verbose).trim_end());
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

/// The gate's document for a run that ended before any harness's answer: a configuration or
/// usage error (`status` 2), or an interruption (`status` 128 + the signal). `error` has the
/// shape of `ladr FILE`'s (`kind`, `message`, `location`, `notes`), from `outcome`.
pub fn error_json(config: &Path, outcome: &Outcome, status: u8) -> Value {
    json!({
        "schema": 1,
        "tool": report::TOOL,
        "config": config.display().to_string(),
        "status": status,
        "error": outcome.error,
        "summary": {
            "harnesses": 0, "no_verdict": 0, "races": 0, "new": 0, "unchanged": 0,
            "suppressed": 0, "absent": 0, "stale_suppressions": 0, "wall_s": 0.0,
        },
        "harnesses": [],
        "absent": [],
        "stale_suppressions": [],
    })
}

pub use report::text::race_line;
