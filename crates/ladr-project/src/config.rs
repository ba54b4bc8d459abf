//! `ladr.toml`: the race gate of a repository (read with the `toml` crate).
//!
//! ```toml
//! # Defaults for every harness (all optional).
//! rounds = 2                 # round-robin rounds K
//! unwind = 2                 # loop unwinding and recursion depth U
//! timeout = 300              # seconds per harness (0: none)
//! deepen = true              # grow the bounds while the time lasts (false: fixed bounds)
//! data-model = "lp64"        # or "ilp32"
//! compile-commands = "build" # compile_commands.json, or the directory holding it
//! flags = ["-Iinclude"]      # preprocessor options added to every file
//! max-races = 0              # races reported per harness (0: every race)
//!
//! [[harness]]                # one program: exactly one of its files defines `main`
//! name = "queue"
//! files = ["tests/queue_harness.c", "src/*.c"]   # globs, relative to this file
//! flags = ["-DTESTING"]      # added to the defaults' flags
//! rounds = 3                 # any default may be set again per harness
//!
//! [[harness]]                # library mode (docs/library-mode.md): no `main` of yours,
//! name = "lib"               # ladr generates one calling each entry on its own thread
//! files = ["src/*.c"]
//! entries = ["push", "pop"]  # or "auto": every exported function paired with each
//!                            # other and itself, one check `lib:f+g` per pair
//! max-pairs = 20             # with "auto": pairs checked at most
//! init = "queue_init"        # called first, alone (optional)
//! share-args = false         # pointer arguments of one type: one object all share
//!
//! [[allow]]                  # a race kept on purpose: listed, never failing the gate
//! variable = "stats.hits"    # the lvalue of an access, or its variable (`stats`), or a
//!                            # field (`.hits`); or `function = "…"` (the function
//!                            # either access is in), or `fingerprint = "…"`
//! reason = "statistics, read without the lock on purpose"   # required
//! ```
//!
//! Paths are relative to the directory of `ladr.toml`. Every error names the file, line
//! and column.

use ladr_c::diag::{Error, ErrorKind, Result};
use serde::Deserialize;
use std::path::{Path, PathBuf};
use toml::Spanned;

/// The default name, looked for in the current directory.
pub const FILE_NAME: &str = "ladr.toml";

/// Bounds and limits, as defaults or for one harness (unset: inherited).
#[derive(Clone, Debug, Default)]
pub struct Settings {
    pub rounds: Option<u32>,
    pub unwind: Option<u32>,
    pub timeout: Option<f64>,
    pub deepen: Option<bool>,
    pub data_model: Option<DataModel>,
    pub max_races: Option<u32>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum DataModel {
    Lp64,
    Ilp32,
}

// The settings are spelled out in both tables rather than `#[serde(flatten)]`ed: with
// flatten, serde loses `deny_unknown_fields` and the location of an unknown key.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
struct Raw {
    rounds: Option<u32>,
    unwind: Option<u32>,
    timeout: Option<f64>,
    deepen: Option<bool>,
    data_model: Option<DataModel>,
    max_races: Option<u32>,
    compile_commands: Option<Spanned<String>>,
    #[serde(default)]
    flags: Vec<Spanned<String>>,
    #[serde(default)]
    harness: Vec<RawHarness>,
    #[serde(default)]
    allow: Vec<Spanned<Allow>>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
struct RawHarness {
    name: Spanned<String>,
    files: Spanned<Vec<String>>,
    #[serde(default)]
    flags: Vec<Spanned<String>>,
    rounds: Option<u32>,
    unwind: Option<u32>,
    timeout: Option<f64>,
    deepen: Option<bool>,
    data_model: Option<DataModel>,
    max_races: Option<u32>,
    entries: Option<Spanned<RawEntries>>,
    init: Option<Spanned<String>>,
    share_args: Option<bool>,
    max_pairs: Option<u32>,
}

/// `entries = ["f", "g"]` or `entries = "auto"`.
#[derive(Debug, Deserialize)]
#[serde(untagged)]
enum RawEntries {
    List(Vec<String>),
    Word(String),
}

/// Library mode of a harness: ladr generates `main` (`ladr_seq::harness`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Library {
    pub entries: Entries,
    pub init: Option<String>,
    pub share_args: bool,
    /// With [`Entries::Auto`]: pairs checked at most.
    pub max_pairs: usize,
    /// Said in every answer's assumptions (the pairs an `auto` harness left out).
    pub note: Option<String>,
}

/// The entry functions of a library-mode harness.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Entries {
    Named(Vec<String>),
    /// Every exported function of the files, paired with every other and itself.
    Auto,
}

/// Pairs an `entries = "auto"` harness checks at most, by default.
pub const MAX_PAIRS: u32 = 20;

/// The settings of a table (`$t`: the top level or a harness).
macro_rules! settings {
    ($t:expr) => {
        Settings {
            rounds: $t.rounds,
            unwind: $t.unwind,
            timeout: $t.timeout,
            deepen: $t.deepen,
            data_model: $t.data_model,
            max_races: $t.max_races,
        }
    };
}

/// A race kept on purpose.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct Allow {
    pub variable: Option<String>,
    pub function: Option<String>,
    pub fingerprint: Option<String>,
    pub reason: String,
}

/// A config suppression with where it was written (for stale ones).
#[derive(Clone, Debug)]
pub struct AllowEntry {
    pub allow: Allow,
    /// `ladr.toml:LINE`.
    pub at: String,
}

/// One harness with everything resolved.
#[derive(Clone, Debug)]
pub struct Harness {
    pub name: String,
    /// The files, in the order written (globs expanded and sorted, duplicates dropped).
    pub files: Vec<PathBuf>,
    /// Preprocessor options for every file (defaults' flags, then the harness's).
    pub flags: Vec<String>,
    pub rounds: u32,
    pub unwind: u32,
    /// Seconds; `None`: no limit.
    pub timeout: Option<f64>,
    pub deepen: bool,
    pub ilp32: bool,
    /// `None`: every race.
    pub max_races: Option<u32>,
    /// Library mode (none: the files have a `main`).
    pub library: Option<Library>,
}

/// A read `ladr.toml`.
#[derive(Clone, Debug)]
pub struct Config {
    pub path: PathBuf,
    /// The directory paths are relative to.
    pub root: PathBuf,
    pub compile_commands: Option<PathBuf>,
    pub harnesses: Vec<Harness>,
    pub allows: Vec<AllowEntry>,
}

/// Built-in defaults (those of `ladr FILE`, and every race).
const ROUNDS: u32 = 2;
const UNWIND: u32 = 2;
const TIMEOUT: f64 = 300.0;

impl Config {
    /// Reads and checks `path`.
    pub fn load(path: &Path) -> Result<Config> {
        let text = std::fs::read_to_string(path).map_err(|e| {
            Error::new(
                ErrorKind::Usage,
                format!("cannot read the config `{}`: {e}", path.display()),
            )
        })?;
        Config::parse(&text, path)
    }

    /// Checks the text of a config read from `path`.
    pub fn parse(text: &str, path: &Path) -> Result<Config> {
        let at = |offset: usize| -> String {
            let line = text[..offset.min(text.len())].matches('\n').count() + 1;
            let col = offset
                - text[..offset.min(text.len())]
                    .rfind('\n')
                    .map_or(0, |i| i + 1)
                + 1;
            format!("{}:{line}:{col}", path.display())
        };
        let err =
            |offset: usize, m: String| Error::new(ErrorKind::Usage, format!("{}: {m}", at(offset)));
        let raw: Raw = toml::from_str(text).map_err(|e| {
            let offset = e.span().map_or(0, |s| s.start);
            err(offset, e.message().trim().to_string())
        })?;
        let root = match path.parent() {
            Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
            _ => PathBuf::from("."),
        };
        let defaults = settings!(raw);
        check_settings(&defaults).map_err(|m| err(0, m))?;
        let mut harnesses = vec![];
        for h in &raw.harness {
            let name = h.name.get_ref().clone();
            if name.is_empty() || name.contains(char::is_whitespace) {
                return Err(err(
                    h.name.span().start,
                    format!("`{name}` is not a harness name: give a word without spaces"),
                ));
            }
            if harnesses.iter().any(|x: &Harness| x.name == name) {
                return Err(err(
                    h.name.span().start,
                    format!("a second harness named `{name}`"),
                ));
            }
            let mine = settings!(h);
            check_settings(&mine).map_err(|m| err(h.name.span().start, m))?;
            let files =
                expand(&root, h.files.get_ref()).map_err(|m| err(h.files.span().start, m))?;
            if files.is_empty() {
                return Err(err(
                    h.files.span().start,
                    format!("harness `{name}` has no files"),
                ));
            }
            let s = |f: fn(&Settings) -> Option<_>| f(&mine).or(f(&defaults));
            let timeout = mine.timeout.or(defaults.timeout).unwrap_or(TIMEOUT);
            let mut flags = checked_flags(&raw.flags, &root).map_err(|(o, m)| err(o, m))?;
            flags.extend(checked_flags(&h.flags, &root).map_err(|(o, m)| err(o, m))?);
            let library = library(h).map_err(|(o, m)| err(o, m))?;
            harnesses.push(Harness {
                library,
                name,
                files,
                flags,
                rounds: mine.rounds.or(defaults.rounds).unwrap_or(ROUNDS),
                unwind: mine.unwind.or(defaults.unwind).unwrap_or(UNWIND),
                timeout: (timeout > 0.0).then_some(timeout),
                deepen: s(|x| x.deepen).unwrap_or(true),
                ilp32: s(|x| x.data_model.map(|m| m == DataModel::Ilp32)).unwrap_or(false),
                max_races: match mine.max_races.or(defaults.max_races) {
                    None | Some(0) => None,
                    Some(n) => Some(n),
                },
            });
        }
        if harnesses.is_empty() {
            return Err(err(
                text.len(),
                "no `[[harness]]`: add one (a name and the files of a program with `main`)".into(),
            ));
        }
        let mut allows = vec![];
        for a in &raw.allow {
            let v = a.get_ref();
            if v.variable.is_none() && v.function.is_none() && v.fingerprint.is_none() {
                return Err(err(
                    a.span().start,
                    "an `[[allow]]` names a `variable`, a `function` or a `fingerprint`".into(),
                ));
            }
            if v.reason.trim().is_empty() {
                return Err(err(
                    a.span().start,
                    "an `[[allow]]` needs a `reason`".into(),
                ));
            }
            allows.push(AllowEntry {
                allow: v.clone(),
                at: at(a.span().start),
            });
        }
        let compile_commands = raw
            .compile_commands
            .as_ref()
            .map(|c| root.join(c.get_ref()));
        if let (Some(c), Some(raw_c)) = (&compile_commands, &raw.compile_commands) {
            if !c.exists() {
                return Err(err(
                    raw_c.span().start,
                    format!("`{}` does not exist (build with CMAKE_EXPORT_COMPILE_COMMANDS=ON, or Bear)", c.display()),
                ));
            }
        }
        Ok(Config {
            path: path.to_path_buf(),
            root,
            compile_commands,
            harnesses,
            allows,
        })
    }
}

/// The library mode of a harness table, checked (the error with its offset).
fn library(h: &RawHarness) -> std::result::Result<Option<Library>, (usize, String)> {
    let Some(entries) = &h.entries else {
        let stray = h.init.as_ref().map(|i| i.span().start);
        return match stray
            .or((h.share_args.is_some() || h.max_pairs.is_some()).then_some(h.name.span().start))
        {
            Some(at) => Err((
                at,
                "`init`, `share-args` and `max-pairs` are for library mode: add `entries`".into(),
            )),
            None => Ok(None),
        };
    };
    let at = entries.span().start;
    let entries = match entries.get_ref() {
        RawEntries::Word(w) if w == "auto" => Entries::Auto,
        RawEntries::Word(w) => {
            return Err((
                at,
                format!("entries = \"{w}\": give a list of functions or \"auto\""),
            ))
        }
        RawEntries::List(l) if l.is_empty() || l.len() > 16 => {
            return Err((
                at,
                "entries: give 1 to 16 functions (each runs on a thread)".into(),
            ))
        }
        RawEntries::List(l) => {
            if let Some(bad) = l.iter().find(|e| !ladr_seq::harness::is_identifier(e)) {
                return Err((
                    at,
                    format!("entries: `{bad}` is not the name of a C function"),
                ));
            }
            Entries::Named(l.clone())
        }
    };
    if let Some(i) = &h.init {
        if !ladr_seq::harness::is_identifier(i.get_ref()) {
            return Err((
                i.span().start,
                format!("init: `{}` is not the name of a C function", i.get_ref()),
            ));
        }
    }
    let max_pairs = h.max_pairs.unwrap_or(MAX_PAIRS);
    if max_pairs == 0 {
        return Err((h.name.span().start, "max-pairs = 0: give at least 1".into()));
    }
    Ok(Some(Library {
        entries,
        init: h.init.as_ref().map(|i| i.get_ref().clone()),
        share_args: h.share_args.unwrap_or(false),
        max_pairs: max_pairs as usize,
        note: None,
    }))
}

fn check_settings(s: &Settings) -> std::result::Result<(), String> {
    ladr_ir::program::check_bounds(s.rounds.unwrap_or(1), s.unwind.unwrap_or(0), 0)?;
    if let Some(t) = s.timeout {
        if !t.is_finite() || t < 0.0 {
            return Err(format!("timeout = {t}: give seconds, 0 for none"));
        }
    }
    Ok(())
}

/// `flags` through the allow-list of preprocessor options
/// ([`ladr_c::frontend::cpp_options`]: gcc runs programs its options name), relative paths
/// made relative to the config's directory; an `-include`/`-imacros` of a file outside it
/// is refused (gcc would print the file). The error carries the offset of the entry.
fn checked_flags(
    flags: &[Spanned<String>],
    root: &Path,
) -> std::result::Result<Vec<String>, (usize, String)> {
    use ladr_c::frontend::cpp_options::{check, CppOption};
    let texts: Vec<String> = flags.iter().map(|f| f.get_ref().clone()).collect();
    let opts = check(&texts).map_err(|(i, m)| (flags[i].span().start, m))?;
    // The entry each option starts at, for the location of a refused path.
    let mut starts = vec![];
    let mut i = 0;
    for o in &opts {
        starts.push(i);
        i += match o {
            CppOption::Path { opt, path } if texts[i] == *opt && !path.is_empty() => 2,
            CppOption::Value { opt, .. } if texts[i] == *opt => 2,
            _ => 1,
        };
    }
    let mut out = vec![];
    for (o, at) in opts.into_iter().zip(starts) {
        match o {
            CppOption::Path { opt, path } => {
                let joined = if Path::new(&path).is_relative() {
                    root.join(&path)
                } else {
                    PathBuf::from(&path)
                };
                if (opt == "-include" || opt == "-imacros") && !inside(root, &joined) {
                    return Err((
                        flags[at].span().start,
                        format!(
                            "`{opt} {path}`: the file is outside the directory of the config; \
                             include only files of the repository"
                        ),
                    ));
                }
                out.extend(
                    CppOption::Path {
                        opt,
                        path: joined.display().to_string(),
                    }
                    .args(),
                );
            }
            o => out.extend(o.args()),
        }
    }
    Ok(out)
}

/// Whether `path` (made absolute, `..` resolved, links followed where it exists) lies in
/// `root`.
pub fn inside(root: &Path, path: &Path) -> bool {
    let cwd = std::env::current_dir().unwrap_or_default();
    let resolve = |p: &Path| {
        std::fs::canonicalize(p).unwrap_or_else(|_| ladr_report::sarif::absolute(p, &cwd))
    };
    resolve(path).starts_with(resolve(root))
}

/// Expands globs relative to `root`, in the order written, each glob's matches sorted; a
/// pattern matching nothing is an error.
fn expand(root: &Path, patterns: &[String]) -> std::result::Result<Vec<PathBuf>, String> {
    let mut out: Vec<PathBuf> = vec![];
    for p in patterns {
        // Only files of the repository: no absolute pattern, no `..`, and every match
        // (links followed) inside `root`.
        if Path::new(p).is_absolute()
            || Path::new(p)
                .components()
                .any(|c| matches!(c, std::path::Component::ParentDir))
        {
            return Err(format!(
                "`{p}` reaches outside the directory of the config: name files relative to \
                 it, without `..`"
            ));
        }
        let full = root.join(p);
        let pattern = full.to_string_lossy();
        let mut matches: Vec<PathBuf> = glob::glob(&pattern)
            .map_err(|e| format!("`{p}` is not a valid glob: {e}"))?
            .filter_map(|m| m.ok())
            .filter(|m| m.is_file())
            .collect();
        if matches.is_empty() {
            return Err(format!(
                "`{p}` matches no file (relative to `{}`)",
                root.display()
            ));
        }
        matches.sort();
        if let Some(m) = matches.iter().find(|m| !inside(root, m)) {
            return Err(format!(
                "`{p}` matches `{}`, which is outside the directory of the config",
                m.display()
            ));
        }
        for m in matches {
            if !out.contains(&m) {
                out.push(m);
            }
        }
    }
    Ok(out)
}

/// A commented starter config (`ladr init`).
pub const STARTER: &str = r#"# ladr.toml: the data-race gate of this repository (`ladr check`).
# Each harness is a program: a file with `main` that starts threads calling the code under
# test, linked with the project's files. Paths are relative to this file.

# Defaults for every harness:
rounds = 2            # round-robin rounds: each thread runs at most this many contexts
unwind = 2            # loop unwinding and recursion depth
timeout = 300         # seconds per harness (0: no limit)
# deepen = false      # by default, after "no race" the bounds grow while the time lasts
# data-model = "lp64" # or "ilp32"
# compile-commands = "build"   # compile_commands.json (or its directory): per-file -I/-D
# flags = ["-Iinclude"]        # preprocessor options for every file

[[harness]]
name = "example"
files = ["tests/race_harness.c", "src/*.c"]

# A race kept on purpose: listed, but it does not fail the gate.
# [[allow]]
# variable = "stats.hits"      # or function = "…", or fingerprint = "…"
# reason = "statistics, read without the lock on purpose"
"#;

#[cfg(test)]
mod tests {
    use super::*;

    /// A project directory, removed when the `TempDir` is dropped (keep it alive).
    fn dir() -> tempfile::TempDir {
        let t = tempfile::tempdir().unwrap();
        let d = t.path();
        std::fs::create_dir_all(d.join("src")).unwrap();
        for f in ["main.c", "src/a.c", "src/b.c"] {
            std::fs::write(d.join(f), "").unwrap();
        }
        t
    }

    #[test]
    fn harnesses_inherit_defaults_and_expand_globs() {
        let t = dir();
        let d = t.path();
        let c = Config::parse(
            "rounds = 3\nflags = [\"-Iinc\"]\n[[harness]]\nname = \"q\"\nfiles = [\"main.c\", \"src/*.c\", \"src/a.c\"]\nunwind = 4\nflags = [\"-DX\"]\n\n[[harness]]\nname = \"r\"\nfiles = [\"main.c\"]\ndata-model = \"ilp32\"\nmax-races = 1\n[[allow]]\nvariable = \"hits\"\nreason = \"on purpose\"\n",
            &d.join(FILE_NAME),
        )
        .unwrap();
        let q = &c.harnesses[0];
        assert_eq!(
            q.files,
            vec![d.join("main.c"), d.join("src/a.c"), d.join("src/b.c")]
        );
        assert_eq!(
            (q.rounds, q.unwind, q.ilp32, q.max_races),
            (3, 4, false, None)
        );
        assert_eq!(
            q.flags,
            vec![format!("-I{}", d.join("inc").display()), "-DX".into()]
        );
        let r = &c.harnesses[1];
        assert_eq!(
            (r.rounds, r.unwind, r.ilp32, r.max_races),
            (3, 2, true, Some(1))
        );
        assert_eq!(c.allows[0].allow.reason, "on purpose");
        assert!(
            c.allows[0].at.ends_with("ladr.toml:14:1"),
            "{}",
            c.allows[0].at
        );
        assert!(Config::parse(STARTER, &d.join(FILE_NAME)).is_err()); // its files don't exist here
    }

    #[test]
    fn errors_name_the_line() {
        let t = dir();
        let d = t.path();
        let cases = [
            ("[[harness]]\nname = \"q\"\nfiles = [\"nope/*.c\"]\n", ":3:9", "matches no file"),
            ("[[harness]]\nname = \"q\"\nfiles = [\"main.c\"]\nroundz = 2\n", ":4:1", "roundz"),
            (
                "[[harness]]\nname = \"q\"\nfiles = [\"main.c\"]\n[[allow]]\nvariable = \"x\"\n",
                ":4:1",
                "reason",
            ),
            (
                "[[harness]]\nname = \"q\"\nfiles = [\"main.c\"]\n[[harness]]\nname = \"q\"\nfiles = [\"main.c\"]\n",
                ":5:8",
                "second harness",
            ),
            ("rounds = 0\n[[harness]]\nname = \"q\"\nfiles = [\"main.c\"]\n", ":1:1", "rounds = 0"),
            ("rounds = 2\n", ":2:1", "no `[[harness]]`"),
            (
                "flags = [\"-DX\", \"-wrapper\", \"/bin/sh,-c,id\"]\n[[harness]]\nname = \"q\"\nfiles = [\"main.c\"]\n",
                ":1:17",
                "`-wrapper` is not a preprocessor option",
            ),
            (
                "[[harness]]\nname = \"q\"\nfiles = [\"main.c\"]\nflags = [\"-fplugin=x.so\"]\n",
                ":4:10",
                "`-fplugin=x.so`",
            ),
            (
                "[[harness]]\nname = \"q\"\nfiles = [\"main.c\"]\nflags = [\"-include\", \"/etc/passwd\"]\n",
                ":4:10",
                "outside",
            ),
            (
                "[[harness]]\nname = \"q\"\nfiles = [\"main.c\", \"../*.c\"]\n",
                ":3:9",
                "outside",
            ),
            (
                "[[harness]]\nname = \"q\"\nfiles = [\"/etc/*\"]\n",
                ":3:9",
                "outside",
            ),
        ];
        for (text, at, what) in cases {
            let e = Config::parse(text, &d.join(FILE_NAME)).unwrap_err();
            assert!(
                e.message.contains(at) && e.message.contains(what),
                "{text}\n→ {}",
                e.message
            );
            assert_eq!(e.kind, ErrorKind::Usage);
        }
    }
}
