//! Each program of `tests/e2e` is checked with CBMC once per run of this test binary,
//! through the library exactly as `ladr FILE` does (`src/main.rs`: load, `ladr_check::check`,
//! `ladr_report::outcome`), and every report format is rendered from that one outcome. The tests
//! ask for a program with [`checked`] (one race, as `ladr FILE`) or [`checked_all`] (every
//! race, `ladr FILE --all`); the first asks CBMC, the others wait for its answer.

use ladr_c::frontend;
use ladr_ir::program::Options;
use ladr_report::{sarif, Outcome};
use serde_json::Value;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::Duration;

/// One program checked, and its reports.
pub struct Checked {
    /// `tests/e2e/FILE`, relative to the package root (the tests' working directory), as
    /// the reports name it.
    pub path: PathBuf,
    pub outcome: Outcome,
    /// The terminal report without colour (`ladr FILE --color never`).
    pub text: String,
    /// The same with every step of every context (`--steps`).
    pub steps_text: String,
    /// `--format json`, as printed and parsed.
    pub json: String,
    pub json_value: Value,
    /// `--format sarif`, URIs relative to [`sarif::root`] of the file, as `ladr` does.
    pub sarif: Value,
}

/// `tests/e2e/FILE` checked with ladr's default bounds for one race, once per test binary.
pub fn checked(file: &str) -> Arc<Checked> {
    cached(file, Some(1))
}

/// `tests/e2e/FILE` checked with ladr's default bounds for every race (`--all`), once per
/// test binary.
pub fn checked_all(file: &str) -> Arc<Checked> {
    cached(file, None)
}

fn cached(file: &str, max_races: Option<usize>) -> Arc<Checked> {
    /// One cell per file and limit: the first test to ask fills it, the others wait.
    type Cells = Mutex<HashMap<(String, Option<usize>), Arc<OnceLock<Arc<Checked>>>>>;
    static DONE: OnceLock<Cells> = OnceLock::new();
    let cell = DONE
        .get_or_init(Default::default)
        .lock()
        .unwrap()
        .entry((file.to_string(), max_races))
        .or_default()
        .clone();
    cell.get_or_init(|| {
        Arc::new(check_races(
            &e2e(file),
            &Options::default(),
            None,
            max_races,
        ))
    })
    .clone()
}

/// `tests/e2e/FILE`, relative to the package root.
pub fn e2e(file: &str) -> PathBuf {
    let path = Path::new("tests/e2e").join(file);
    assert!(
        path.is_file(),
        "{} not found: the tests run in the package root",
        path.display()
    );
    path
}

/// Checks `path` with `opts` (and CBMC's time limit `timeout`) for one race as `ladr` does,
/// without a cache; panics where `ladr` would refuse the program.
pub fn check(path: &Path, opts: &Options, timeout: Option<Duration>) -> Checked {
    check_races(path, opts, timeout, Some(1))
}

/// [`check`] for at most `max_races` races (`None`: every race, `--all`).
pub fn check_races(
    path: &Path,
    opts: &Options,
    timeout: Option<Duration>,
    max_races: Option<usize>,
) -> Checked {
    let t0 = std::time::Instant::now();
    let parsed = frontend::load(path, &frontend::Options::default())
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let parse_time = t0.elapsed().as_secs_f64();
    let cbmc = ladr_cbmc::locate(None).expect("CBMC (scripts/install-cbmc)");
    let mut copts = ladr_cbmc::Options::new(cbmc);
    copts.timeout = timeout;
    let request = ladr_check::Request {
        max_races,
        ..ladr_check::Request::new(opts.clone(), copts)
    };
    let answer = ladr_check::check(&parsed, &request, &|_, _: &Options| {})
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let outcome = ladr_report::outcome(&answer, &parsed.path, parse_time);
    let text = ladr_report::text::to_string(&outcome, &parsed, false);
    let steps_text = ladr_report::text::to_string(&outcome, &parsed, true);
    let json = ladr_report::json(&outcome);
    let json_value = serde_json::from_str(&json).expect("the JSON report parses");
    let sarif = sarif::sarif(&outcome, &sarif::root(path));
    // The SARIF document as printed parses to the same value.
    let printed: Value = serde_json::from_str(&sarif::to_string(&sarif)).expect("SARIF parses");
    assert_eq!(printed, sarif);
    Checked {
        path: path.to_path_buf(),
        outcome,
        text,
        steps_text,
        json,
        json_value,
        sarif,
    }
}
