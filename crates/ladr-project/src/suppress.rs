//! Suppressions: races a project keeps on purpose. They are listed, never fail the gate.
//!
//! * In source: a comment `ladr: allow(data-race) <reason>` (`//` or `/* */`) on the line of
//!   either access, or on the line above it.
//! * In `ladr.toml`: `[[allow]]` by `variable` (the access's lvalue as written, its base
//!   variable, or `.field` for a field of any object), by `function` (the function either
//!   access is in, or the start routine of its thread), or by `fingerprint`.
//!
//! A suppression that matches no race of the run is *stale* and reported as such.

use crate::config::AllowEntry;
use ladr_report::AccessInfo;
use std::collections::{BTreeSet, HashMap};
use std::path::{Path, PathBuf};

/// The marker of an in-source suppression.
pub const MARKER: &str = "ladr: allow(data-race)";

/// Why a race does not fail the gate (or `ladr FILE`).
pub use ladr_report::Suppression;

/// An in-source suppression comment found in a file.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Comment {
    pub file: String,
    pub line: u32,
    pub reason: String,
}

/// Reads files' suppression comments once each.
#[derive(Default)]
pub struct Sources {
    files: HashMap<PathBuf, Vec<(u32, String)>>,
}

impl Sources {
    /// The suppression comments of `file` (a path as the report names it).
    pub fn comments(&mut self, file: &str) -> &[(u32, String)] {
        self.files.entry(PathBuf::from(file)).or_insert_with(|| {
            match std::fs::read_to_string(file) {
                Ok(text) => comments_in(&text),
                Err(_) => vec![],
            }
        })
    }

    /// The comment suppressing an access at `file:line` (on it or on the line above).
    pub fn at(&mut self, file: &str, line: u32) -> Option<Comment> {
        let found = self
            .comments(file)
            .iter()
            .find(|(l, _)| *l == line || *l + 1 == line)
            .cloned();
        found.map(|(line, reason)| Comment {
            file: file.to_string(),
            line,
            reason,
        })
    }
}

/// `(line, reason)` of every suppression comment in `text`.
pub fn comments_in(text: &str) -> Vec<(u32, String)> {
    markers_in(text)
        .into_iter()
        .map(|m| (m.line, m.reason))
        .collect()
}

/// A suppression comment: its line, the byte offset of its marker in the text, its reason.
struct Marker {
    line: u32,
    offset: usize,
    reason: String,
}

fn markers_in(text: &str) -> Vec<Marker> {
    let mut out = vec![];
    let mut start = 0;
    for (i, line) in text.split_inclusive('\n').enumerate() {
        let line_start = start;
        start += line.len();
        let Some(at) = line.find(MARKER) else {
            continue;
        };
        let before = &line[..at];
        if !(before.contains("//") || before.contains("/*")) {
            continue;
        }
        let reason = line[at + MARKER.len()..]
            .trim()
            .trim_end_matches("*/")
            .trim()
            .to_string();
        out.push(Marker {
            line: i as u32 + 1,
            offset: line_start + at,
            reason,
        });
    }
    out
}

/// Refuses a suppression comment without a reason in any of `files` (as `[[allow]]` needs
/// a `reason`): a usage error located at the comment. Files that cannot be read are
/// skipped (the check reports them if they matter).
pub fn check_reasons<'f>(files: impl IntoIterator<Item = &'f str>) -> ladr_c::diag::Result<()> {
    use ladr_c::diag::{Error, ErrorKind};
    for file in files {
        let Ok(text) = std::fs::read_to_string(file) else {
            continue;
        };
        if let Some(m) = markers_in(&text).into_iter().find(|m| m.reason.is_empty()) {
            return Err(Error::new(
                ErrorKind::Usage,
                format!("`{MARKER}` without a reason"),
            )
            .in_file(file, &text, m.offset..m.offset + MARKER.len(), "no reason")
            .note(format!(
                "write why the race is kept after it: `// {MARKER} counter read without the lock on purpose`"
            )));
        }
    }
    Ok(())
}

/// Whether `file` lies under one of `dirs` (made absolute against the current directory):
/// suppression comments are read only in the project's own files, never in a file a line
/// marker names elsewhere on the machine.
pub fn under(file: &str, dirs: &[PathBuf]) -> bool {
    let cwd = std::env::current_dir().unwrap_or_default();
    let abs = ladr_report::sarif::absolute(Path::new(file), &cwd);
    dirs.iter()
        .any(|d| abs.starts_with(ladr_report::sarif::absolute(d, &cwd)))
}

/// `ladr FILE`: marks each race with an access on or below an in-source suppression
/// comment, in a file under `dirs`, as suppressed.
pub fn mark_in_source(races: &mut [ladr_report::Race], dirs: &[PathBuf]) {
    let mut sources = Sources::default();
    for race in races {
        race.suppression = race
            .accesses
            .iter()
            .filter(|a| under(&a.file, dirs))
            .find_map(|a| sources.at(&a.file, a.line))
            .map(|c| Suppression {
                kind: "inSource".into(),
                justification: c.reason,
                at: format!("{}:{}", c.file, c.line),
            });
    }
}

/// The suppression of a race, if any: in source first, then the config's.
pub fn find(
    accesses: &[&AccessInfo; 2],
    functions: [Option<&str>; 2],
    fingerprint: &str,
    sources: &mut Sources,
    allows: &[AllowEntry],
) -> Option<Suppression> {
    for a in accesses {
        if let Some(c) = sources.at(&a.file, a.line) {
            return Some(Suppression {
                kind: "inSource".into(),
                justification: c.reason,
                at: format!("{}:{}", c.file, c.line),
            });
        }
    }
    allows
        .iter()
        .find(|e| matches(e, accesses, functions, fingerprint))
        .map(|e| Suppression {
            kind: "external".into(),
            justification: e.allow.reason.clone(),
            at: e.at.clone(),
        })
}

fn matches(
    e: &AllowEntry,
    accesses: &[&AccessInfo; 2],
    functions: [Option<&str>; 2],
    fingerprint: &str,
) -> bool {
    let a = &e.allow;
    if let Some(f) = &a.fingerprint {
        if f != fingerprint {
            return false;
        }
    }
    if let Some(v) = &a.variable {
        if !accesses.iter().any(|x| names_variable(&x.expr, v)) {
            return false;
        }
    }
    if let Some(f) = &a.function {
        let in_function = functions.iter().flatten().any(|g| g == f);
        let routine = accesses.iter().any(|x| x.thread.function == *f);
        if !(in_function || routine) {
            return false;
        }
    }
    true
}

/// Whether the lvalue `expr` is `v`: the same text, its base variable (`stats` of
/// `stats.hits[i]`), or for `.f` a field `f` of any object (`q->f`, `s.f`).
pub fn names_variable(expr: &str, v: &str) -> bool {
    let squash = |s: &str| s.chars().filter(|c| !c.is_whitespace()).collect::<String>();
    let (expr, v) = (squash(expr), squash(v));
    if expr == v {
        return true;
    }
    if let Some(field) = v.strip_prefix('.') {
        return expr
            .split(['.', '[', ']', '*', '(', ')', '&'])
            .flat_map(|p| p.split("->"))
            .any(|p| p == field)
            && (expr.contains(&format!(".{field}")) || expr.contains(&format!("->{field}")));
    }
    let base: String = expr
        .trim_start_matches(['*', '(', '&'])
        .chars()
        .take_while(|c| c.is_alphanumeric() || *c == '_')
        .collect();
    base == v || expr.starts_with(&format!("{v}.")) || expr.starts_with(&format!("{v}->"))
}

/// In-source suppressions under `root` in `files` that suppressed nothing, and config
/// suppressions that matched nothing.
pub fn stale(
    files: &BTreeSet<String>,
    used: &BTreeSet<String>,
    allows: &[AllowEntry],
    sources: &mut Sources,
    root: &Path,
) -> Vec<Suppression> {
    let mut out = vec![];
    for f in files {
        let abs = ladr_report::sarif::absolute(
            Path::new(f),
            &std::env::current_dir().unwrap_or_default(),
        );
        if !abs.starts_with(root) {
            continue;
        }
        for (line, reason) in sources.comments(f).to_vec() {
            let at = format!("{f}:{line}");
            if !used.contains(&at) {
                out.push(Suppression {
                    kind: "inSource".into(),
                    justification: reason,
                    at,
                });
            }
        }
    }
    for e in allows {
        if !used.contains(&e.at) {
            out.push(Suppression {
                kind: "external".into(),
                justification: e.allow.reason.clone(),
                at: e.at.clone(),
            });
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn comments_are_found_with_their_reason() {
        let text = "int x;\n  x++; // ladr: allow(data-race) counter, approximate\n/* ladr: allow(data-race) b */\nchar *s = \"ladr: allow(data-race)\";\n";
        assert_eq!(
            comments_in(text),
            vec![
                (2, "counter, approximate".to_string()),
                (3, "b".to_string())
            ]
        );
    }

    #[test]
    fn variables_fields_and_bases() {
        assert!(names_variable("stats.hits", "stats.hits"));
        assert!(names_variable("stats.hits", "stats"));
        assert!(names_variable("stats.hits", ".hits"));
        assert!(names_variable("q->hits", ".hits"));
        assert!(names_variable("buf[i].len", "buf"));
        assert!(names_variable("*p", "p"));
        assert!(!names_variable("statsx.hits", "stats"));
        assert!(!names_variable("stats.hitsx", ".hits"));
        assert!(!names_variable("hits", ".hits"));
    }
}
