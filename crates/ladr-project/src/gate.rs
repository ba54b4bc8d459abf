//! `ladr check`: every harness of a `ladr.toml`, `jobs` at a time, then the races sorted
//! into new, unchanged (in the baseline) and suppressed: a [`Gate`], which `ladr_report::gate`
//! renders (one combined JSON document, one combined SARIF run, the text report).
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
use crate::suppress::{self, Sources};
use ladr_c::diag::{Error, ErrorKind};
use ladr_c::frontend::{link, Parsed};
use ladr_check::{Phase, Prove, Request};
use ladr_ir::program::Options;
use ladr_report as report;
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

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
                .stack_size(ladr_c::trees::STACK)
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
        deepen_steps: if h.deepen {
            ladr_check::DEEPEN_STEPS
        } else {
            0
        },
        max_races: h.max_races.map(|m| m as usize),
        // A harness the static analysis proves race-free needs no CBMC run (as `ladr FILE`).
        prove: Prove::First,
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
        // As `ladr FILE` without `--max-threads`.
        max_threads: Some(ladr_ir::program::DEFAULT_MAX_THREADS),
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

pub use report::gate::{race_line, Gate, HarnessRun, Judged, State};
