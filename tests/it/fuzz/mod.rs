//! Fuzz / property tests of everything ladr reads from a repository it does not trust
//! (issue 28, item 17): the C front end and the sequentialization (parse → passes → print,
//! not CBMC), `ladr.toml`, compile databases, baselines and swarm manifests.
//!
//! Every target generates inputs from a deterministic seed — small grammar pieces and
//! mutations of real inputs (the e2e programs of `tests/e2e`, docs/gate.md's config, ladr's
//! own JSON and SARIF) — with a bound on each input's size, and asserts for every input:
//!
//! * no panic (each case runs under `catch_unwind`) and no abort (the test process would
//!   die: the C target runs on a thread with the check's stack, `ladr_c::trees::STACK`, as
//!   `ladr` does);
//! * no unbounded memory: inputs are bounded (`MAX_C`, `MAX_TEXT`) and, on Linux, the
//!   process's peak resident memory (`VmHWM`, reset before each case) stays under
//!   `MEMORY_LIMIT` — a coarse check, since the targets run side by side;
//! * a located error for every rejected input where the format has locations: a C error
//!   maps to a file, line and column of the input; a `ladr.toml` error names
//!   `ladr.toml:LINE:COL`; a JSON error (compile database, baseline, manifest) names the
//!   file, and a syntax error also its line and column.
//!
//! An `Internal` error (a pass broke an invariant, `--check-ir` is on) is an error
//! document, not a crash: it is counted and printed, not failed.
//!
//! Budget: `LADR_FUZZ_CASES` inputs per target (default [`DEFAULT_CASES`] for the C and
//! manifest targets, four times that for the others: about 8 s in all in a release build
//! on 2 cores), seed `LADR_FUZZ_SEED` (default fixed). A long
//! run: `LADR_FUZZ_CASES=100000 cargo test --release --test it -- fuzz:: --nocapture`. Each
//! failure names its target, seed and case number; `LADR_FUZZ_ONLY=N` reruns case N alone,
//! and the failing inputs are written under `target/tmp/fuzz-failures/`; `LADR_FUZZ_TRACE=1`
//! prints each case's number and each rejection's message and keeps each C input. The
//! docs/security.md (Fuzzing) lists what the long runs tried and found.

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::Path;

mod c;
mod json;
mod mutate;
mod toml;

/// Inputs per target when `LADR_FUZZ_CASES` is not set.
const DEFAULT_CASES: u64 = 150;
/// The seed when `LADR_FUZZ_SEED` is not set.
const DEFAULT_SEED: u64 = 0x1add_2817;
/// Largest C program tried (bytes of the user's part).
const MAX_C: usize = 6 << 10;
/// Largest config, compile database, baseline or manifest tried.
const MAX_TEXT: usize = 16 << 10;
/// Peak resident memory above which a case is a failure (bytes).
const MEMORY_LIMIT: u64 = 3 << 30;

fn env_u64(name: &str) -> Option<u64> {
    std::env::var(name).ok().and_then(|v| v.trim().parse().ok())
}

/// What a run of one target found.
#[derive(Default)]
struct Findings {
    tried: u64,
    rejected: u64,
    internal: Vec<String>,
    failures: Vec<String>,
}

/// Runs `case` on `cases` inputs of `target`; each gets its own generator, so case `i` is
/// reproducible alone (`LADR_FUZZ_ONLY=i`).
fn drive(
    target: &str,
    default_cases: u64,
    mut case: impl FnMut(&mut fastrand::Rng, &mut Findings) -> Result<(), String>,
) {
    let cases = env_u64("LADR_FUZZ_CASES").unwrap_or(default_cases);
    let seed = env_u64("LADR_FUZZ_SEED").unwrap_or(DEFAULT_SEED);
    let only = env_u64("LADR_FUZZ_ONLY");
    let trace = std::env::var_os("LADR_FUZZ_TRACE").is_some();
    let salt = target.bytes().fold(0xcbf2_9ce4_8422_2325u64, |h, b| {
        (h ^ b as u64).wrapping_mul(0x100_0000_01b3)
    });
    let mut f = Findings::default();
    for i in 0..cases {
        if only.is_some_and(|o| o != i) {
            continue;
        }
        let mut rng = fastrand::Rng::with_seed(seed ^ salt ^ i.wrapping_mul(0x9e37_79b9_7f4a_7c15));
        if trace {
            eprintln!("fuzz {target}: case {i}");
        }
        reset_peak_memory();
        let r = catch_unwind(AssertUnwindSafe(|| case(&mut rng, &mut f)));
        f.tried += 1;
        let failure = match r {
            Ok(Ok(())) => None,
            Ok(Err(m)) => Some(m),
            Err(p) => Some(format!(
                "panic: {}",
                p.downcast_ref::<String>()
                    .cloned()
                    .or_else(|| p.downcast_ref::<&str>().map(|s| s.to_string()))
                    .unwrap_or_default()
            )),
        };
        let failure = failure.or_else(|| {
            peak_memory()
                .filter(|&m| m > MEMORY_LIMIT)
                .map(|m| format!("peak memory {} MiB", m >> 20))
        });
        if let Some(m) = failure {
            f.failures
                .push(format!("{target} case {i} (seed {seed:#x}): {m}"));
        }
    }
    eprintln!(
        "fuzz {target}: {} inputs tried, {} rejected with an error, {} internal errors, {} failures",
        f.tried,
        f.rejected,
        f.internal.len(),
        f.failures.len()
    );
    for m in &f.internal {
        eprintln!("  internal: {m}");
    }
    assert!(
        f.failures.is_empty(),
        "{} failures:\n{}",
        f.failures.len(),
        f.failures.join("\n")
    );
}

/// Keeps a failing input for a look (`target/tmp/fuzz-failures/…`).
fn keep(target: &str, text: &str) -> String {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("fuzz-failures");
    let _ = std::fs::create_dir_all(&dir);
    let n = text.bytes().fold(0xcbf2_9ce4_8422_2325u64, |h, b| {
        (h ^ b as u64).wrapping_mul(0x100_0000_01b3)
    });
    let path = dir.join(format!("{target}-{n:016x}.txt"));
    let _ = std::fs::write(&path, text);
    path.display().to_string()
}

fn reset_peak_memory() {
    // Linux: writing 5 resets the peak resident set size (`VmHWM`).
    let _ = std::fs::write("/proc/self/clear_refs", "5");
}

fn peak_memory() -> Option<u64> {
    let s = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = s.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kb: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb << 10)
}
