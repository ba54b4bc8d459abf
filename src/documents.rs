//! The documents of runs that end without an answer, so that with `--format json|sarif`
//! stdout always holds one (`ladr … --format sarif > ladr.sarif` never uploads an empty
//! file): command lines clap refuses (once `--format` was read), and runs a signal stops.
//! Every document goes out through [`emit_once`]: at most one per run, never two
//! interleaved when a signal arrives while the answer is printed.

use ladr_c::diag::{Error, ErrorKind};
use ladr_ir::program::Options;
use ladr_report as report;
use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::sync::{Mutex, OnceLock};

/// Whether a document was printed (held while one is printed).
static PRINTED: Mutex<bool> = Mutex::new(false);

/// The document of an interruption by a signal, when the run asked for one.
type OnSignal = Box<dyn Fn(i32) -> String + Send + Sync>;
static ON_SIGNAL: OnceLock<OnSignal> = OnceLock::new();

/// Writes `text` to stdout (a closed stdout is not worth a panic) and records that the run's
/// document is out.
pub fn emit(text: &str) {
    use std::io::Write;
    let mut printed = PRINTED.lock().unwrap_or_else(|e| e.into_inner());
    let mut out = std::io::stdout().lock();
    let _ = out.write_all(text.as_bytes()).and_then(|()| out.flush());
    *printed = true;
}

/// Writes `text` unless a document is out already.
fn emit_once(text: &str) {
    use std::io::Write;
    let mut printed = PRINTED.lock().unwrap_or_else(|e| e.into_inner());
    if !*printed {
        let mut out = std::io::stdout().lock();
        let _ = out.write_all(text.as_bytes()).and_then(|()| out.flush());
        *printed = true;
    }
}

/// Registers the document an interruption prints (the first registration holds).
pub fn on_signal(document: OnSignal) {
    let _ = ON_SIGNAL.set(document);
}

/// Ends the run interrupted by `signal`: its document (if the run asked for one and printed
/// none), then exit with 128 + the signal, as a shell reports a killed command. Holds the
/// output lock to the end, so nothing prints after it.
pub fn exit_interrupted(signal: i32) -> ! {
    if let Some(document) = ON_SIGNAL.get() {
        emit_once(&document(signal));
    }
    let _held = PRINTED.lock();
    std::process::exit(128 + signal);
}

/// `--format`'s value on a raw command line (before any `--`), if it names a document
/// format: `json` or `sarif`.
pub fn format_asked(args: &[OsString]) -> Option<&'static str> {
    let mut found = None;
    let mut it = args.iter().skip(1).map(|a| a.to_string_lossy());
    while let Some(a) = it.next() {
        let value = if a == "--" {
            break;
        } else if a == "--format" {
            it.next().map(|v| v.into_owned())
        } else if let Some(v) = a.strip_prefix("--format=") {
            Some(v.to_string())
        } else {
            continue;
        };
        found = match value.as_deref() {
            Some("json") => Some("json"),
            Some("sarif") => Some("sarif"),
            _ => None,
        };
    }
    found
}

/// A command line clap refused: its message on stderr and, with `--format json|sarif`
/// read, a document on stdout; exit status 2. Help and version go out as clap prints them.
/// `takes_value`: the options written with a separate value (`--rounds`, `-I`), so that the
/// document names the right input file.
pub fn usage_error(e: clap::Error, takes_value: &[String]) -> std::process::ExitCode {
    use clap::error::ErrorKind as Clap;
    let args: Vec<OsString> = std::env::args_os().collect();
    let format = format_asked(&args);
    if matches!(e.kind(), Clap::DisplayHelp | Clap::DisplayVersion)
        || (e.kind() == Clap::DisplayHelpOnMissingArgumentOrSubcommand && format.is_none())
    {
        e.exit();
    }
    let _ = e.print();
    if let Some(format) = format {
        let text = e.render().to_string();
        let message = text
            .lines()
            .next()
            .unwrap_or("usage error")
            .trim_start_matches("error: ")
            .to_string();
        let error = Error::new(ErrorKind::Usage, message);
        emit_once(&document(&args, format, &error, None, takes_value));
    }
    std::process::ExitCode::from(2)
}

/// The document for a run of `args` that ended with `error` (or, with `signal`, was
/// interrupted): the gate's document for `ladr check`, else `ladr FILE`'s.
pub fn document(
    args: &[OsString],
    format: &str,
    error: &Error,
    signal: Option<i32>,
    takes_value: &[String],
) -> String {
    let words: Vec<String> = args
        .iter()
        .skip(1)
        .map(|a| a.to_string_lossy().into_owned())
        .collect();
    let gate = words.first().is_some_and(|w| w == "check");
    let input = if gate {
        config_path(&words).display().to_string()
    } else {
        first_file(&words, takes_value).unwrap_or_default()
    };
    let opts = Options::default();
    let outcome = match signal {
        Some(s) => report::interrupted_outcome(&input, s, &opts),
        None => report::error_outcome(&input, error, None, &opts),
    };
    let root = report::sarif::root(Path::new(&input));
    match (format, gate) {
        ("json", true) => {
            let status = signal.map_or(2, |s| (128 + s) as u8);
            let doc = report::gate::error_json(Path::new(&input), &outcome, status);
            format!("{doc}\n")
        }
        ("json", false) => format!("{}\n", report::json(&outcome)),
        _ => format!(
            "{}\n",
            report::sarif::to_string(&report::sarif::sarif(&outcome, &root))
        ),
    }
}

/// `ladr check`'s config on a raw command line (`--config FILE`, else `ladr.toml`).
fn config_path(words: &[String]) -> PathBuf {
    let mut it = words.iter();
    while let Some(w) = it.next() {
        if w == "--config" {
            if let Some(v) = it.next() {
                return PathBuf::from(v);
            }
        } else if let Some(v) = w.strip_prefix("--config=") {
            return PathBuf::from(v);
        }
    }
    PathBuf::from(ladr_project::config::FILE_NAME)
}

/// The first word that is neither an option nor an option's value.
fn first_file(words: &[String], takes_value: &[String]) -> Option<String> {
    let mut skip = false;
    for w in words {
        if skip {
            skip = false;
            continue;
        }
        if w.starts_with('-') {
            // Options written `--opt VALUE` take the next word.
            skip = !w.contains('=') && takes_value.iter().any(|t| t == w);
            continue;
        }
        return Some(w.clone());
    }
    None
}
