//! The SV-COMP violation witness in YAML, witness format 2.2 (`--witness-format yaml`): one
//! `violation_sequence` entry whose content is
//!
//! * one segment per thread creation the interleaving ran, in happens-before order (the
//!   order of the contexts, and within a context the order of its lines): a `function_enter`
//!   waypoint of the creating thread (`thread_id`) at the `)` closing the `pthread_create`
//!   call's arguments. As in the format, threads are numbered by these waypoints: the n-th
//!   creation is thread n, `main` is thread 0 (so a witness's thread ids are not ladr's slot
//!   numbers when a thread created no other first);
//! * a final segment with two `target` waypoints, the first and the second racing access,
//!   each with the thread that makes it.
//!
//! The YAML is written by hand (the format uses a small subset: mappings, sequences, strings
//! in double quotes with JSON-compatible escapes, integers), from a `serde_json::Value` of
//! the same document ([`document`]), so tests can compare the text with a YAML parser's
//! reading of it and validate the value against the format's JSON schema.

use super::witness::{hex, iso8601_utc, sha256};
use super::{Outcome, Position, Thread, TOOL};
use serde_json::{json, Map, Value};
use std::path::Path;
use std::time::{SystemTime, UNIX_EPOCH};

/// The format version written.
pub const FORMAT_VERSION: &str = "2.2";

/// SV-COMP's no-data-race property in the format's `specification` field (the LTL formula
/// of the property file, as in published 2.2 data-race witnesses).
pub const SPECIFICATION: &str = "G ! data-race";

/// The YAML witness of the first race of `o` for `program_file`, with data model `ILP32` or
/// `LP64`; `None` without a race.
pub fn yaml(o: &Outcome, program_file: &Path, data_model: &str) -> Option<String> {
    let secs = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or(0);
    document(o, program_file, data_model, &iso8601_utc(secs)).map(|d| to_yaml(&d))
}

/// The witness as a value (the YAML document's data), with creation time `time`.
pub fn document(o: &Outcome, program_file: &Path, data_model: &str, time: &str) -> Option<Value> {
    let race = o.races.first()?;
    let file = program_file.display().to_string();
    let bytes = std::fs::read(program_file).unwrap_or_default();
    let hash = hex(&sha256(&bytes));
    let uuid = uuid(&format!("{hash} {time} {}", race.fingerprint));

    // Thread creations in happens-before order: the contexts in order, each context's lines
    // in order; a line that created k threads (a create in an unwound loop has one line per
    // iteration) matches the creations of the context's slot at that line in slot order.
    let mut order: Vec<&Thread> = vec![];
    let created: Vec<&Thread> = race
        .interleaving
        .iter()
        .map(|c| &c.thread)
        .chain(race.accesses.iter().map(|a| &a.thread))
        .filter(|t| t.created_at.is_some())
        .fold(vec![], |mut v: Vec<&Thread>, t| {
            if !v.iter().any(|u| u.slot == t.slot) {
                v.push(t);
            }
            v
        });
    let mut creator = vec![];
    for c in &race.interleaving {
        for l in &c.lines {
            let mut here: Vec<&Thread> = created
                .iter()
                .copied()
                .filter(|t| {
                    !order.iter().any(|o| o.slot == t.slot)
                        && t.created_at
                            .as_ref()
                            .is_some_and(|p| p.file == l.file && p.line == l.line)
                })
                .collect();
            here.sort_by_key(|t| t.slot);
            // One creation per time the context ran the line (lines are collapsed runs).
            if let Some(t) = here.first() {
                order.push(t);
                creator.push(c.thread.slot);
            }
        }
    }
    // Witness thread ids: main 0, then the creations in order.
    let id_of = |slot: usize| -> Option<usize> {
        if slot == 0 {
            return Some(0);
        }
        order.iter().position(|t| t.slot == slot).map(|i| i + 1)
    };
    let mut content = vec![];
    for (t, by) in order.iter().zip(&creator) {
        let at = t.call_end.as_ref().or(t.created_at.as_ref());
        let (Some(at), Some(tid)) = (at, id_of(*by)) else {
            continue;
        };
        let function = function_at(race, *by);
        content.push(json!({
            "segment": [{ "waypoint": {
                "type": "function_enter",
                "action": "follow",
                "thread_id": tid,
                "location": location(at, &file, &function),
            }}],
        }));
    }
    let targets: Vec<Value> = race
        .accesses
        .iter()
        .map(|a| {
            let pos = Position {
                file: a.file.clone(),
                line: a.line,
                column: a.column,
            };
            let function = a
                .function
                .clone()
                .unwrap_or_else(|| a.thread.function.clone());
            json!({ "waypoint": {
                "type": "target",
                "action": "follow",
                "thread_id": id_of(a.thread.slot).unwrap_or(a.thread.slot),
                "location": location(&pos, &file, &function),
            }})
        })
        .collect();
    content.push(json!({ "segment": targets }));
    let mut hashes = Map::new();
    hashes.insert(file.clone(), Value::String(hash));
    Some(json!([{
        "entry_type": "violation_sequence",
        "metadata": {
            "format_version": FORMAT_VERSION,
            "uuid": uuid,
            "creation_time": time,
            "producer": producer(o),
            "task": {
                "input_files": [file],
                "input_file_hashes": hashes,
                "specification": SPECIFICATION,
                "data_model": data_model,
                "language": "C",
            },
        },
        "content": content,
    }]))
}

/// The function a thread is in at a line of its contexts: the start routine (inlined
/// helpers are reported as the routine that runs them).
fn function_at(race: &super::Race, slot: usize) -> String {
    race.interleaving
        .iter()
        .map(|c| &c.thread)
        .chain(race.accesses.iter().map(|a| &a.thread))
        .find(|t| t.slot == slot)
        .map(|t| t.function.clone())
        .unwrap_or_else(|| "main".to_string())
}

/// A waypoint location; the program file's name for lines of the program (the format names
/// input files only).
fn location(p: &Position, file: &str, function: &str) -> Value {
    json!({
        "file_name": file,
        "line": p.line,
        "column": p.column,
        "function": function,
    })
}

/// An RFC 4122 version-4-shaped UUID from SHA-256 of `seed`.
fn uuid(seed: &str) -> String {
    let mut b = sha256(seed.as_bytes());
    b[6] = (b[6] & 0x0f) | 0x40;
    b[8] = (b[8] & 0x3f) | 0x80;
    let h = hex(&b[..16]);
    format!(
        "{}-{}-{}-{}-{}",
        &h[..8],
        &h[8..12],
        &h[12..16],
        &h[16..20],
        &h[20..32]
    )
}

/// The YAML text of a value: block mappings and sequences, scalars as JSON writes them (a
/// JSON string is a valid YAML double-quoted scalar), empty collections in flow style.
pub fn to_yaml(v: &Value) -> String {
    let mut out = String::new();
    node(&mut out, v, 0, false);
    out
}

/// Writes `v` at `indent`; `inline`: the first line continues a `- ` already written.
fn node(out: &mut String, v: &Value, indent: usize, inline: bool) {
    let pad = " ".repeat(indent);
    match v {
        Value::Array(items) if !items.is_empty() => {
            for (i, item) in items.iter().enumerate() {
                if !(inline && i == 0) {
                    out.push_str(&pad);
                }
                out.push_str("- ");
                match item {
                    Value::Array(a) if !a.is_empty() => {
                        out.push('\n');
                        node(out, item, indent + 2, false);
                    }
                    Value::Object(m) if !m.is_empty() => node(out, item, indent + 2, true),
                    _ => {
                        out.push_str(&scalar(item));
                        out.push('\n');
                    }
                }
            }
        }
        Value::Object(m) if !m.is_empty() => {
            let mut entries: Vec<(&String, &Value)> = m.iter().collect();
            entries.sort_by_key(|(k, _)| rank(k));
            for (i, (k, item)) in entries.into_iter().enumerate() {
                if !(inline && i == 0) {
                    out.push_str(&pad);
                }
                out.push_str(&scalar(&Value::String(k.clone())));
                out.push(':');
                match item {
                    Value::Array(a) if !a.is_empty() => {
                        out.push('\n');
                        node(out, item, indent + 2, false);
                    }
                    Value::Object(o) if !o.is_empty() => {
                        out.push('\n');
                        node(out, item, indent + 2, false);
                    }
                    _ => {
                        out.push(' ');
                        out.push_str(&scalar(item));
                        out.push('\n');
                    }
                }
            }
        }
        _ => {
            out.push_str(&pad);
            out.push_str(&scalar(v));
            out.push('\n');
        }
    }
}

/// The producer: ladr and its version, and as its `configuration` the size of the OpenMP
/// teams the program does not size, when the answer has one (a bound of the witness).
fn producer(o: &Outcome) -> Value {
    let mut p = json!({ "name": TOOL.name, "version": TOOL.version });
    if let Some(team) = super::text::omp_team_text(&o.bounds) {
        p["configuration"] = Value::String(team);
    }
    p
}

/// The order of keys in the written mappings: the format's own order (serde_json's maps
/// are sorted by name); other keys after these, by name.
fn rank(key: &str) -> (usize, &str) {
    const ORDER: &[&str] = &[
        "entry_type",
        "metadata",
        "content",
        "format_version",
        "uuid",
        "creation_time",
        "producer",
        "task",
        "name",
        "version",
        "configuration",
        "input_files",
        "input_file_hashes",
        "specification",
        "data_model",
        "language",
        "segment",
        "waypoint",
        "type",
        "action",
        "thread_id",
        "location",
        "file_name",
        "line",
        "column",
        "function",
    ];
    (
        ORDER.iter().position(|k| *k == key).unwrap_or(ORDER.len()),
        key,
    )
}

/// A scalar (or an empty collection) as YAML: keys made of `[a-z_]` plain, every other
/// string double-quoted with JSON's escapes (YAML's double-quoted style is a superset).
fn scalar(v: &Value) -> String {
    match v {
        Value::String(s)
            if !s.is_empty() && s.chars().all(|c| c.is_ascii_lowercase() || c == '_') =>
        {
            // `true`, `null`, `yes`, … never occur as keys or enum values here, but a plain
            // scalar must not be read as one.
            if matches!(
                s.as_str(),
                "true" | "false" | "null" | "yes" | "no" | "on" | "off" | "y" | "n"
            ) {
                format!("\"{s}\"")
            } else {
                s.clone()
            }
        }
        other => serde_json::to_string(other).expect("a JSON value always serialises"),
    }
}

#[cfg(test)]
mod tests {
    use super::{to_yaml, uuid};
    use serde_json::json;

    #[test]
    fn yaml_of_nested_values() {
        let v = json!([{ "entry_type": "violation_sequence", "m": { "a": [1, 2], "e": [] },
                         "s": "x: \"y\"\n", "on": "on" }]);
        assert_eq!(
            to_yaml(&v),
            "- entry_type: violation_sequence\n  m:\n    a:\n      - 1\n      - 2\n    e: []\n  \
             \"on\": \"on\"\n  s: \"x: \\\"y\\\"\\n\"\n"
        );
        let seg = json!([{ "segment": [{ "waypoint": { "type": "target" } }] }]);
        assert_eq!(
            to_yaml(&seg),
            "- segment:\n    - waypoint:\n        type: target\n"
        );
    }

    #[test]
    fn uuids_have_the_rfc_4122_shape() {
        let u = uuid("x");
        assert_eq!(u.len(), 36);
        assert_eq!(&u[14..15], "4");
        assert!(matches!(&u[19..20], "8" | "9" | "a" | "b"), "{u}");
        assert_ne!(u, uuid("y"));
    }
}
