//! SARIF 2.1.0 (OASIS) for GitHub code scanning and other SARIF viewers, built from an
//! [`Outcome`].
//!
//! One run; `tool.driver` carries the single rule `data-race`. Each race is one result: the
//! second access (the one that begins context C2) is `locations[0]`, the first (the write
//! that ends C1) is `relatedLocations[0]`, and `codeFlows[0]` has one `threadFlow` per thread
//! of the interleaving, each listing the lines its contexts ran, with `executionOrder` giving
//! the global order of the interleaving. URIs are relative to `root` (`%SRCROOT%`, declared in
//! `originalUriBaseIds`); `partialFingerprints["ladrRace/v1"]` identifies the race by what does
//! not move when unrelated lines change (file, lvalue, access kind, start routine of both
//! accesses). No race: zero results. Unknown: zero results and an unsuccessful invocation
//! with the reason.
//!
//! This module reads the source files named by the outcome (to give columns in characters
//! and the end column of an access) and runs `git` (to find the repository root, [`root`]);
//! both are optional: without them the byte column is given and the current directory is the
//! root.

use super::{AccessInfo, Context, Outcome, Thread, TOOL};
use serde_json::{json, Map, Value};
use std::collections::HashMap;
use std::path::{Component, Path, PathBuf};

/// The `$schema` of the log: the OASIS schema of SARIF 2.1.0 with errata 01.
pub const SCHEMA: &str =
    "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json";
/// The one rule.
pub const RULE_ID: &str = "data-race";
/// The `partialFingerprints` key; its value is [`fingerprint`] of the race.
pub const FINGERPRINT_KEY: &str = "ladrRace/v1";
/// The base id of every relative URI.
pub const SRCROOT: &str = "%SRCROOT%";

/// The root that URIs are relative to: the top level of the git repository holding `input`
/// (`git rev-parse --show-toplevel` in its directory), else the current directory.
pub fn root(input: &Path) -> PathBuf {
    let dir = match input.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
        _ => PathBuf::from("."),
    };
    let top = std::process::Command::new("git")
        .arg("-C")
        .arg(&dir)
        .args(["rev-parse", "--show-toplevel"])
        .stderr(std::process::Stdio::null())
        .output()
        .ok()
        .filter(|o| o.status.success())
        .and_then(|o| String::from_utf8(o.stdout).ok())
        .map(|s| s.trim_end_matches(['\n', '\r']).to_string())
        .filter(|s| !s.is_empty());
    match top {
        Some(t) => PathBuf::from(t),
        None => std::env::current_dir().unwrap_or_else(|_| PathBuf::from(".")),
    }
}

/// The SARIF log of `o`, with URIs relative to `root` (see [`root`]).
/// The SARIF document as text.
pub fn to_string(log: &Value) -> String {
    serde_json::to_string_pretty(log).expect("a JSON value always serialises")
}

pub fn sarif(o: &Outcome, root: &Path) -> Value {
    let mut ctx = Ctx::new(root, &o.input);
    let mut results = vec![];
    for race in &o.races {
        results.push(race_result(race, &o.bounds, &mut ctx));
    }
    let mut invocation = Map::new();
    invocation.insert(
        "executionSuccessful".into(),
        json!(!matches!(o.verdict.as_str(), "unknown" | "error")),
    );
    let note = match o.verdict.as_str() {
        "unknown" | "error" => Some((
            "error",
            o.reason.as_deref().unwrap_or("no verdict").to_string(),
        )),
        "no-race" => Some(("note", super::text::summary(o))),
        _ => None,
    };
    if let Some((level, text)) = note {
        let mut n = json!({
            "level": level,
            "message": { "text": text },
            "descriptor": { "id": o.verdict },
        });
        // The diagnostic's place in the source, and its notes.
        if let Some(e) = &o.error {
            if let Some(p) = &e.location {
                n["locations"] = json!([{
                    "physicalLocation": {
                        "artifactLocation": ctx.artifact(&p.file),
                        "region": { "startLine": p.line, "startColumn": p.column },
                    },
                }]);
            }
            n["descriptor"]["id"] = json!(e.kind);
            if !e.notes.is_empty() {
                n["message"]["text"] = json!(format!("{text} ({})", e.notes.join("; ")));
            }
        }
        invocation.insert("toolExecutionNotifications".into(), json!([n]));
    }
    let mut properties = json!({ "verdict": o.verdict, "bounds": o.bounds });
    if let Some(search) = &o.search {
        properties["search"] = json!(search);
    }
    if !o.assumptions.is_empty() {
        properties["assumptions"] = json!(o.assumptions);
    }
    json!({
        "$schema": SCHEMA,
        "version": "2.1.0",
        "runs": [{
            "tool": { "driver": driver() },
            "originalUriBaseIds": {
                SRCROOT: {
                    "uri": dir_uri(&ctx.root),
                    "description": { "text": "The root of the repository (or the directory ladr ran in)." },
                },
            },
            "columnKind": "unicodeCodePoints",
            "invocations": [Value::Object(invocation)],
            "results": results,
            "properties": properties,
        }],
    })
}

fn driver() -> Value {
    json!({
        "name": TOOL.name,
        "version": TOOL.version,
        "semanticVersion": TOOL.version,
        "rules": [{
            "id": RULE_ID,
            "name": "DataRace",
            "shortDescription": { "text": "Data race" },
            "fullDescription": {
                "text": "Two threads access the same memory location, at least one of them \
                         writes, not both accesses are atomic, and nothing orders one before \
                         the other: the program's behaviour is undefined."
            },
            "help": {
                "text": "ladr found an interleaving of the threads (within its bounds of \
                         rounds and loop unwindings) in which one thread's access directly \
                         follows another thread's write of the same location with no \
                         synchronisation in between. Protect both accesses with the same \
                         mutex, make them atomic (C11 _Atomic or __atomic builtins), or order \
                         the threads (pthread_join, a condition variable with its mutex). The \
                         code flow shows the interleaving, one thread flow per thread.",
                "markdown": "ladr found an interleaving of the threads (within its bounds of \
                             rounds and loop unwindings) in which one thread's access directly \
                             follows another thread's write of the same location with no \
                             synchronisation in between.\n\nFix it by one of:\n\n\
                             * protecting both accesses with the same mutex;\n\
                             * making them atomic (C11 `_Atomic`, `__atomic` builtins);\n\
                             * ordering the threads (`pthread_join`, a condition variable \
                             with its mutex).\n\nThe code flow shows the interleaving, one \
                             thread flow per thread.",
            },
            "defaultConfiguration": { "level": "error" },
            "properties": {
                "tags": ["concurrency", "correctness", "external/cwe/cwe-362"],
                "precision": "high",
                "problem.severity": "error",
            },
        }],
    })
}

/// URIs, source lines and the execution-order counter while building one log.
struct Ctx {
    root: PathBuf,
    cwd: PathBuf,
    /// Lines of each source file read so far (`None`: unreadable, or not the input).
    sources: HashMap<String, Option<Vec<String>>>,
    /// The checked file: the only one whose lines are quoted (a file a line marker names,
    /// `#line 2 "/any/file"`, is never opened: issue 28).
    input: String,
}

impl Ctx {
    fn new(root: &Path, input: &str) -> Ctx {
        let cwd = std::env::current_dir().unwrap_or_else(|_| PathBuf::from("."));
        let root = absolute(root, &cwd);
        let root = root.canonicalize().unwrap_or(root);
        Ctx {
            root,
            cwd,
            sources: HashMap::new(),
            input: input.to_string(),
        }
    }

    /// `artifactLocation` of `file`: relative to `%SRCROOT%` when the file is under the root,
    /// else an absolute `file:` URI.
    fn artifact(&self, file: &str) -> Value {
        match self.relative(file) {
            Some(rel) => json!({ "uri": rel, "uriBaseId": SRCROOT }),
            None => json!({ "uri": file_uri(&self.absolute(file)) }),
        }
    }

    /// `file` relative to the root, with `/` separators and percent-encoded.
    fn relative(&self, file: &str) -> Option<String> {
        let abs = self.absolute(file);
        let rel = abs.strip_prefix(&self.root).ok()?;
        let parts: Vec<String> = rel
            .components()
            .map(|c| percent_encode(&c.as_os_str().to_string_lossy()))
            .collect();
        (!parts.is_empty()).then(|| parts.join("/"))
    }

    fn absolute(&self, file: &str) -> PathBuf {
        let abs = absolute(Path::new(file), &self.cwd);
        abs.canonicalize().unwrap_or(abs)
    }

    /// The text of line `line` of `file`, if the file is the input and can be read.
    fn line(&mut self, file: &str, line: u32) -> Option<&str> {
        let input = Path::new(file) == Path::new(&self.input);
        let lines = self.sources.entry(file.to_string()).or_insert_with(|| {
            input.then(|| std::fs::read(file).ok()).flatten().map(|b| {
                String::from_utf8_lossy(&b)
                    .lines()
                    .map(str::to_string)
                    .collect()
            })
        });
        lines
            .as_ref()?
            .get((line as usize).checked_sub(1)?)
            .map(String::as_str)
    }

    /// The region of an access: its line, its column in characters, and the end column
    /// (exclusive) when the source line holds the lvalue's text there.
    fn access_region(&mut self, a: &AccessInfo) -> Value {
        let mut region = json!({ "startLine": a.line, "startColumn": a.column });
        if let Some(text) = self.line(&a.file, a.line) {
            let byte = (a.column as usize).saturating_sub(1);
            if let Some(prefix) = text.get(..byte) {
                let start = prefix.chars().count() as u64 + 1;
                region["startColumn"] = json!(start);
                if !a.expr.is_empty() && text[byte..].starts_with(a.expr.as_str()) {
                    region["endColumn"] = json!(start + a.expr.chars().count() as u64);
                }
            }
        }
        region
    }

    fn access_location(&mut self, a: &AccessInfo, id: Option<u32>, message: String) -> Value {
        let mut loc = json!({
            "physicalLocation": {
                "artifactLocation": self.artifact(&a.file),
                "region": self.access_region(a),
            },
            "message": { "text": message },
        });
        if let Some(id) = id {
            loc["id"] = json!(id);
        }
        loc
    }
}

/// A racing access's thread-flow location properties: the locks its thread holds
/// (`locksHeld`, as `locks_held` in JSON) and whether it is in an atomic section.
fn access_properties(a: &AccessInfo) -> Value {
    json!({
        "locksHeld": a.locks_held,
        "atomicSection": a.atomic_section,
    })
}

fn race_result(race: &super::Race, bounds: &super::Bounds, ctx: &mut Ctx) -> Value {
    let [first, second] = &race.accesses;
    let line = |file: &str, line: u32| {
        if file == second.file {
            format!("line {line}")
        } else {
            format!("{file}:{line}")
        }
    };
    // The line, and the OpenMP construct the access is in.
    let at = |a: &AccessInfo| {
        let construct = a
            .omp_construct
            .as_ref()
            .map(|c| format!(" in the `{}` at {}", c.name, line(&c.at.file, c.at.line)))
            .unwrap_or_default();
        format!("{}{construct}", line(&a.file, a.line))
    };
    let message = format!(
        "Data race on {}: {} by {} at {} and {} by {} at {}, and nothing orders them.",
        second.quoted(),
        first.words(),
        thread_words(&first.thread),
        at(first),
        second.words(),
        thread_words(&second.thread),
        at(second),
    );
    // Why: the locks each thread holds at its access.
    let message = format!(
        "{message} {}.",
        super::text::locks_text(first, second).replacen("locks:", "Locks:", 1)
    );
    // The team size, when it is a bound ladr chose.
    let message = match super::text::omp_team_text(bounds) {
        Some(team) => format!("{message} Found with {team}."),
        None => message,
    };
    let primary = ctx.access_location(
        second,
        None,
        format!(
            "second access: {} by {}{}",
            second.words(),
            thread_words(&second.thread),
            values_words(second)
        ),
    );
    let related = ctx.access_location(
        first,
        Some(1),
        format!(
            "first access: {} by {}{}",
            first.words(),
            thread_words(&first.thread),
            values_words(first)
        ),
    );
    // Relative to this log's root (the outcome's `fingerprint` is relative to the input's
    // repository root, the same root wherever ladr writes both).
    let fp = race_fingerprint_in(race, ctx);
    let rounds = race.interleaving.iter().map(|c| c.round).max().unwrap_or(0);
    let mut result = json!({
        "ruleId": RULE_ID,
        "ruleIndex": 0,
        "level": "error",
        "kind": "fail",
        "message": { "text": message },
        "locations": [primary],
        "relatedLocations": [related],
        "codeFlows": [{
            "message": {
                "text": format!(
                    "The interleaving: {} context{} in {} round{}.",
                    race.interleaving.len(),
                    if race.interleaving.len() == 1 { "" } else { "s" },
                    rounds,
                    if rounds == 1 { "" } else { "s" },
                ),
            },
            "threadFlows": thread_flows(race, ctx),
        }],
        "partialFingerprints": { FINGERPRINT_KEY: fp },
        // Races of one cause share a group (one finding per bug); every pair is a result.
        "properties": { "group": race.group },
    });
    if let Some(s) = &race.suppression {
        result["suppressions"] = json!([{
            "kind": s.kind,
            "status": "accepted",
            "justification": s.justification,
            "properties": {"at": s.at},
        }]);
    }
    result
}

/// One thread flow per thread of the interleaving (in order of first appearance), plus the
/// racing threads if they ran no context; `executionOrder` numbers every location of every
/// flow in interleaving order, from 1.
fn thread_flows(race: &super::Race, ctx: &mut Ctx) -> Vec<Value> {
    let [first, second] = &race.accesses;
    let mut order: Vec<&Thread> = vec![];
    for t in race
        .interleaving
        .iter()
        .map(|c| &c.thread)
        .chain([&first.thread, &second.thread])
    {
        if !order.iter().any(|o| o.slot == t.slot) {
            order.push(t);
        }
    }
    let (c1, c2) = racing_contexts(race);
    let mut flows: Vec<Vec<Value>> = vec![vec![]; order.len()];
    let mut step = 0u64;
    for (ci, c) in race.interleaving.iter().enumerate() {
        let k = order
            .iter()
            .position(|t| t.slot == c.thread.slot)
            .expect("every context's thread is listed");
        let lines = context_lines(c, ci, c1, c2, first, second);
        for (li, (pos, role)) in lines.iter().enumerate() {
            step += 1;
            let mut text = String::new();
            if li == 0 {
                text.push_str(&format!(
                    "round {}: thread {} ({})",
                    c.round, c.thread.slot, c.thread.function
                ));
            }
            let what: Vec<&str> = c
                .steps
                .iter()
                .filter(|s| s.pos.line == pos.line && s.pos.file == pos.file)
                .map(|s| s.what.as_str())
                .collect();
            let detail = match role {
                Role::First => format!("{} (first access of the race)", first.words()),
                Role::Second => format!("{} (second access of the race)", second.words()),
                Role::Plain if !what.is_empty() => dedup(what).join("; "),
                Role::Plain => format!("line {}", pos.line),
            };
            if !text.is_empty() {
                text.push_str(": ");
            }
            text.push_str(&detail);
            let region = match role {
                Role::First => ctx.access_region(first),
                Role::Second => ctx.access_region(second),
                Role::Plain => json!({ "startLine": pos.line }),
            };
            let mut location = json!({
                "location": {
                    "physicalLocation": {
                        "artifactLocation": ctx.artifact(&pos.file),
                        "region": region,
                    },
                    "message": { "text": text },
                },
                "executionOrder": step,
                "nestingLevel": 0,
                "importance": match role {
                    Role::Plain if li == 0 => "important",
                    Role::Plain => "unimportant",
                    _ => "essential",
                },
            });
            match role {
                Role::First => location["properties"] = access_properties(first),
                Role::Second => location["properties"] = access_properties(second),
                Role::Plain => {}
            }
            flows[k].push(location);
        }
    }
    // A racing thread with no context of its own still shows its access.
    for (a, role) in [(first, "first"), (second, "second")] {
        let k = order.iter().position(|t| t.slot == a.thread.slot).unwrap();
        if flows[k].is_empty() {
            step += 1;
            let loc = ctx.access_location(
                a,
                None,
                format!("{} ({role} access of the race)", a.words()),
            );
            flows[k].push(json!({
                "location": loc,
                "executionOrder": step,
                "nestingLevel": 0,
                "importance": "essential",
                "properties": access_properties(a),
            }));
        }
    }
    order
        .iter()
        .zip(flows)
        .map(|(t, locations)| {
            json!({
                "id": format!("thread-{}", t.slot),
                "message": { "text": thread_words(t) },
                "locations": locations,
            })
        })
        .collect()
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Role {
    Plain,
    First,
    Second,
}

/// Indices of C1 (the last context of the first access's thread before the last context)
/// and C2 (the last context, where the second access happens).
fn racing_contexts(race: &super::Race) -> (Option<usize>, Option<usize>) {
    let n = race.interleaving.len();
    let c2 = n.checked_sub(1);
    let c1 = race.interleaving[..n.saturating_sub(1)]
        .iter()
        .rposition(|c| c.thread.slot == race.accesses[0].thread.slot);
    (c1, c2)
}

/// The lines of context `ci` with the racing accesses marked: in C1 the last line of the
/// first access, in C2 the first line of the second access (and nothing after it).
fn context_lines(
    c: &Context,
    ci: usize,
    c1: Option<usize>,
    c2: Option<usize>,
    first: &AccessInfo,
    second: &AccessInfo,
) -> Vec<(super::Position, Role)> {
    let mut out: Vec<(super::Position, Role)> =
        c.lines.iter().map(|p| (p.clone(), Role::Plain)).collect();
    let is = |p: &super::Position, a: &AccessInfo| p.line == a.line && p.file == a.file;
    if Some(ci) == c1 {
        if let Some(i) = out.iter().rposition(|(p, _)| is(p, first)) {
            out[i].1 = Role::First;
        }
    }
    if Some(ci) == c2 {
        match out.iter().position(|(p, _)| is(p, second)) {
            Some(i) => {
                out.truncate(i + 1);
                out[i].1 = Role::Second;
            }
            None => out.push((
                super::Position {
                    file: second.file.clone(),
                    line: second.line,
                    column: second.column,
                },
                Role::Second,
            )),
        }
    }
    out
}

fn dedup(v: Vec<&str>) -> Vec<&str> {
    let mut out: Vec<&str> = vec![];
    for s in v {
        if !out.contains(&s) {
            out.push(s);
        }
    }
    out
}

/// `thread 1 (producer)`.
fn thread_words(t: &Thread) -> String {
    format!("thread {} ({})", t.slot, t.function)
}

/// `, where i = 1` for the values CBMC gave the lvalue's variables.
fn values_words(a: &AccessInfo) -> String {
    if a.values.is_empty() {
        return String::new();
    }
    let v: Vec<String> = a
        .values
        .iter()
        .map(|v| format!("{} = {}", v.name, v.value))
        .collect();
    format!(", where {}", v.join(", "))
}

/// The `ladrRace/v1` fingerprint: FNV-1a (64 bit, hex) of the rule id and, for both accesses
/// in a fixed order, the file relative to the root, the lvalue, the access kind and the start
/// routine of its thread. Line and column numbers and slot numbers are left out, so the
/// fingerprint survives edits elsewhere in the file.
pub fn fingerprint(file1: &str, a1: &AccessInfo, file2: &str, a2: &AccessInfo) -> String {
    let key = |file: &str, a: &AccessInfo| {
        format!(
            "{file}\u{0}{}\u{0}{}\u{0}{}",
            a.expr, a.kind, a.thread.function
        )
    };
    let mut parts = [key(file1, a1), key(file2, a2)];
    parts.sort();
    let text = format!("{RULE_ID}\u{1}{}\u{1}{}", parts[0], parts[1]);
    format!("{:016x}", fnv1a64(text.as_bytes()))
}

/// The [`fingerprint`] of a race, its files relative to `root` (see [`root`]).
pub fn race_fingerprint(race: &super::Race, root: &Path) -> String {
    race_fingerprint_in(race, &Ctx::new(root, ""))
}

fn race_fingerprint_in(race: &super::Race, ctx: &Ctx) -> String {
    let [first, second] = &race.accesses;
    fingerprint(
        ctx.relative(&first.file).as_deref().unwrap_or(&first.file),
        first,
        ctx.relative(&second.file)
            .as_deref()
            .unwrap_or(&second.file),
        second,
    )
}

/// FNV-1a, 64 bit.
pub fn fnv1a64(bytes: &[u8]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in bytes {
        h ^= u64::from(*b);
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    h
}

/// `p` made absolute against `cwd` and cleaned of `.` and `..` (without touching the disk;
/// the file need not exist).
pub fn absolute(p: &Path, cwd: &Path) -> PathBuf {
    let joined = if p.is_absolute() {
        p.to_path_buf()
    } else {
        cwd.join(p)
    };
    let mut out = PathBuf::new();
    for c in joined.components() {
        match c {
            Component::CurDir => {}
            Component::ParentDir => {
                out.pop();
            }
            other => out.push(other.as_os_str()),
        }
    }
    out
}

/// `file:///abs/path` (percent-encoded).
fn file_uri(abs: &Path) -> String {
    let parts: Vec<String> = abs
        .components()
        .filter_map(|c| match c {
            Component::Normal(s) => Some(percent_encode(&s.to_string_lossy())),
            _ => None,
        })
        .collect();
    format!("file:///{}", parts.join("/"))
}

/// `file:///abs/dir/` — a base URI must end with a slash.
fn dir_uri(abs: &Path) -> String {
    let u = file_uri(abs);
    if u.ends_with('/') {
        u
    } else {
        u + "/"
    }
}

/// Percent-encodes everything but RFC 3986's unreserved characters (one path segment).
fn percent_encode(s: &str) -> String {
    let mut out = String::new();
    for b in s.bytes() {
        if b.is_ascii_alphanumeric() || matches!(b, b'-' | b'.' | b'_' | b'~') {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fnv1a64_known_values() {
        assert_eq!(fnv1a64(b""), 0xcbf29ce484222325);
        assert_eq!(fnv1a64(b"a"), 0xaf63dc4c8601ec8c);
        assert_eq!(fnv1a64(b"foobar"), 0x85944171f73967e8);
    }

    #[test]
    fn uris() {
        assert_eq!(percent_encode("a b+c.c"), "a%20b%2Bc.c");
        assert_eq!(file_uri(Path::new("/x/y z")), "file:///x/y%20z");
        assert_eq!(dir_uri(Path::new("/")), "file:///");
        assert_eq!(dir_uri(Path::new("/r")), "file:///r/");
        assert_eq!(
            absolute(Path::new("./a/../b.c"), Path::new("/w")),
            PathBuf::from("/w/b.c")
        );
    }
}
