//! The SARIF log and the GraphML violation witness (`report::witness::graphml`) of real
//! races found by CBMC in `tests/e2e` programs (each checked once, [`checked`]): the fields
//! SARIF 2.1.0 and GitHub code scanning require, the locations against the JSON report of
//! the same outcome and against the known racing lines, the stability of the fingerprint,
//! and a well-formed witness whose path ends in the second access. Needs CBMC
//! (scripts/install-cbmc).

use crate::checked::{self, checked, e2e};
use ladr_ir::program::Options;
use ladr_report::{sarif, witness, Outcome};
use serde_json::Value;
use std::collections::{HashMap, HashSet};
use std::path::Path;
use std::process::Command;
use std::time::Duration;

fn s<'a>(v: &'a Value, ptr: &str) -> &'a str {
    v.pointer(ptr)
        .and_then(Value::as_str)
        .unwrap_or_else(|| panic!("no string at {ptr} in {v:#}"))
}

fn n(v: &Value, ptr: &str) -> u64 {
    v.pointer(ptr)
        .and_then(Value::as_u64)
        .unwrap_or_else(|| panic!("no integer at {ptr} in {v:#}"))
}

/// A physicalLocation as SARIF 2.1.0 and GitHub want it: a relative URI with a declared base,
/// startLine ≥ 1, columns ≥ 1, endColumn after startColumn.
fn check_physical(pl: &Value, bases: &Value) {
    let uri = s(pl, "/artifactLocation/uri");
    assert!(!uri.is_empty());
    assert!(
        !uri.contains("://") && !uri.starts_with('/') && !uri.contains('\\'),
        "URI not relative: {uri}"
    );
    let base = s(pl, "/artifactLocation/uriBaseId");
    let base_uri = bases
        .get(base)
        .and_then(|b| b.get("uri"))
        .and_then(Value::as_str)
        .unwrap_or_else(|| panic!("uriBaseId {base} not in originalUriBaseIds"));
    assert!(
        base_uri.starts_with("file:///") && base_uri.ends_with('/'),
        "{base_uri}"
    );
    let region = &pl["region"];
    assert!(n(region, "/startLine") >= 1);
    if let Some(c) = region.get("startColumn") {
        assert!(c.as_u64().unwrap() >= 1);
    }
    if let Some(e) = region.get("endColumn") {
        assert!(e.as_u64().unwrap() > n(region, "/startColumn"));
    }
}

/// Every field the SARIF 2.1.0 schema and GitHub code scanning require, checked explicitly.
/// Returns the one run.
pub fn check_sarif(log: &Value) -> &Value {
    assert_eq!(s(log, "/version"), "2.1.0");
    assert!(s(log, "/$schema").starts_with("https://"));
    let runs = log["runs"].as_array().expect("runs");
    assert_eq!(runs.len(), 1);
    let run = &runs[0];
    assert_eq!(s(run, "/tool/driver/name"), "ladr");
    assert!(!s(run, "/tool/driver/version").is_empty());
    let rules = run["tool"]["driver"]["rules"].as_array().expect("rules");
    assert_eq!(rules.len(), 1);
    let rule = &rules[0];
    assert_eq!(s(rule, "/id"), "data-race");
    for p in [
        "/name",
        "/shortDescription/text",
        "/fullDescription/text",
        "/help/text",
    ] {
        assert!(!s(rule, p).is_empty(), "rule {p}");
    }
    assert_eq!(s(rule, "/defaultConfiguration/level"), "error");
    let bases = &run["originalUriBaseIds"];
    for r in run["results"].as_array().expect("results") {
        assert_eq!(s(r, "/ruleId"), "data-race");
        assert_eq!(s(r, "/level"), "error");
        assert!(!s(r, "/message/text").is_empty());
        let locs = r["locations"].as_array().expect("locations");
        assert_eq!(locs.len(), 1);
        check_physical(&locs[0]["physicalLocation"], bases);
        for rl in r["relatedLocations"].as_array().expect("relatedLocations") {
            assert!(rl["id"].is_u64());
            assert!(!s(rl, "/message/text").is_empty());
            check_physical(&rl["physicalLocation"], bases);
        }
        let fps = r["partialFingerprints"].as_object().expect("fingerprints");
        assert!(!fps.is_empty());
        assert!(fps
            .values()
            .all(|v| v.as_str().is_some_and(|s| !s.is_empty())));
        let mut orders = vec![];
        for cf in r["codeFlows"].as_array().expect("codeFlows") {
            let tfs = cf["threadFlows"].as_array().expect("threadFlows");
            assert!(!tfs.is_empty());
            for tf in tfs {
                let locs = tf["locations"].as_array().expect("threadFlow locations");
                assert!(!locs.is_empty());
                let mut last = 0;
                for l in locs {
                    check_physical(&l["location"]["physicalLocation"], bases);
                    let o = n(l, "/executionOrder");
                    assert!(o > last, "executionOrder rises within a thread flow");
                    last = o;
                    orders.push(o);
                }
            }
        }
        // One global order over all thread flows: 1, 2, … without repeats.
        orders.sort();
        assert_eq!(orders, (1..=orders.len() as u64).collect::<Vec<_>>());
    }
    run
}

/// The SARIF log and the JSON report of the same racy program: the SARIF locations are
/// the JSON's accesses (second as the location, first as the related one) and the known lines.
fn sarif_matches_json(file: &str, first_line: u64, second_line: u64) -> Value {
    let c = checked(file);
    let path = format!("tests/e2e/{file}");
    assert_eq!(c.outcome.verdict, "race", "{}", c.json);
    let (json, log) = (&c.json_value, c.sarif.clone());
    let run = check_sarif(&log);
    let results = run["results"].as_array().unwrap();
    assert_eq!(results.len(), 1);
    let r = &results[0];
    let (a1, a2) = (
        &json["races"][0]["accesses"][0],
        &json["races"][0]["accesses"][1],
    );
    assert_eq!(n(a1, "/line"), first_line, "{json:#}");
    assert_eq!(n(a2, "/line"), second_line, "{json:#}");
    for (loc, a) in [(&r["locations"][0], a2), (&r["relatedLocations"][0], a1)] {
        let pl = &loc["physicalLocation"];
        assert_eq!(s(pl, "/artifactLocation/uri"), path);
        assert_eq!(s(pl, "/artifactLocation/uriBaseId"), "%SRCROOT%");
        assert_eq!(n(pl, "/region/startLine"), n(a, "/line"));
        assert_eq!(n(pl, "/region/startColumn"), n(a, "/column"));
        // The lvalue's extent: these programs write it exactly as ladr prints it.
        let expr = s(a, "/expr");
        assert_eq!(
            n(pl, "/region/endColumn"),
            n(a, "/column") + expr.len() as u64
        );
    }
    // The message names the variable, both threads and both lines.
    let msg = s(r, "/message/text");
    for part in [
        format!("`{}`", s(a2, "/expr")),
        format!("thread {}", n(a1, "/thread/slot")),
        format!("thread {}", n(a2, "/thread/slot")),
        format!("line {first_line}"),
        format!("line {second_line}"),
    ] {
        assert!(msg.contains(&part), "{part} not in {msg}");
    }
    // One thread flow per thread of the interleaving, in the JSON's context order.
    let contexts = json["races"][0]["interleaving"].as_array().unwrap();
    let mut slots: Vec<u64> = vec![];
    for c in contexts {
        let k = n(c, "/thread/slot");
        if !slots.contains(&k) {
            slots.push(k);
        }
    }
    let flows = r["codeFlows"][0]["threadFlows"].as_array().unwrap();
    let ids: Vec<&str> = flows.iter().map(|f| s(f, "/id")).collect();
    let want: Vec<String> = slots.iter().map(|k| format!("thread-{k}")).collect();
    assert_eq!(ids, want);
    // The flows' lines in execution order are the JSON's context lines, up to the race.
    let mut ordered: Vec<(u64, u64)> = flows
        .iter()
        .flat_map(|f| f["locations"].as_array().unwrap())
        .map(|l| {
            (
                n(l, "/executionOrder"),
                n(l, "/location/physicalLocation/region/startLine"),
            )
        })
        .collect();
    ordered.sort();
    let lines: Vec<u64> = ordered.iter().map(|(_, l)| *l).collect();
    let json_lines: Vec<u64> = contexts
        .iter()
        .flat_map(|c| c["lines"].as_array().unwrap())
        .map(|p| n(p, "/line"))
        .collect();
    assert_eq!(lines, json_lines);
    assert_eq!(*lines.last().unwrap(), second_line);
    // Each context's first location says round and thread.
    let c0 = &contexts[1];
    let flow = flows
        .iter()
        .find(|f| s(f, "/id") == format!("thread-{}", n(c0, "/thread/slot")))
        .unwrap();
    assert_eq!(
        s(flow, "/locations/0/location/message/text")
            .split(':')
            .next(),
        Some(format!("round {}", n(c0, "/round")).as_str())
    );
    log
}

fn fingerprint(log: &Value) -> String {
    s(log, "/runs/0/results/0/partialFingerprints/ladrRace~1v1").to_string()
}

#[test]
fn sarif_global_racy() {
    // CBMC finds the read first (C1 reads, C2 writes) with the one-address encoding.
    let log = sarif_matches_json("global_racy.c", 4, 3);
    let flows = log
        .pointer("/runs/0/results/0/codeFlows/0/threadFlows")
        .unwrap();
    // The writer's flow starts in the round of its context in the JSON's interleaving.
    let json = &checked("global_racy.c").json_value;
    let round = json["races"][0]["interleaving"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| n(c, "/thread/slot") == 1)
        .map(|c| n(c, "/round"))
        .unwrap();
    let messages: Vec<&str> = flows
        .as_array()
        .unwrap()
        .iter()
        .map(|f| s(f, "/locations/0/location/message/text"))
        .collect();
    assert!(
        messages
            .iter()
            .any(|m| m.starts_with(&format!("round {round}: thread 1 (w)"))),
        "{messages:?}"
    );
}

#[test]
fn sarif_condvar_racy() {
    let log = sarif_matches_json("condvar_racy.c", 11, 19);
    // Same program, same race, same fingerprint: `ladr --format sarif` checks it again,
    // with the library's options (no deepening, no proof's facts in the bounded program:
    // they change the program and so may change CBMC's interleaving).
    let out = Command::new(env!("CARGO_BIN_EXE_ladr"))
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .args([
            "tests/e2e/condvar_racy.c",
            "--format",
            "sarif",
            "--no-deepen",
            "--no-prove",
        ])
        .output()
        .expect("run ladr");
    assert_eq!(out.status.code(), Some(1));
    let again: Value = serde_json::from_slice(&out.stdout).expect("SARIF on stdout");
    check_sarif(&again);
    assert_eq!(again, log, "the command line prints the library's log");
    assert_eq!(fingerprint(&log), fingerprint(&again));
    let other = &checked("global_racy.c").sarif;
    assert_ne!(fingerprint(&log), fingerprint(other));
    let msg = s(&log, "/runs/0/results/0/message/text");
    assert!(
        msg.contains("producer") && msg.contains("consumer"),
        "{msg}"
    );
}

/// A blank line at the top moves every line by one but keeps the fingerprint (the moved
/// copy is checked again, under the same name in a directory of its own).
#[test]
fn sarif_fingerprint_survives_moved_lines() {
    let file = "global_racy.c";
    let src = std::fs::read_to_string(e2e(file)).unwrap();
    let b = tempfile::tempdir().unwrap();
    std::fs::write(b.path().join(file), format!("\n{src}")).unwrap();
    let moved = checked::check(&b.path().join(file), &Options::default(), None);
    assert_eq!(moved.outcome.verdict, "race");
    let la = sarif::sarif(&checked(file).outcome, Path::new("tests/e2e"));
    let lb = sarif::sarif(&moved.outcome, b.path());
    check_sarif(&la);
    check_sarif(&lb);
    let line = |log: &Value, p: &str| {
        n(
            log,
            &format!("/runs/0/results/0/{p}/physicalLocation/region/startLine"),
        )
    };
    assert_eq!(line(&la, "locations/0"), 3);
    assert_eq!(line(&lb, "locations/0"), 4);
    assert_eq!(line(&la, "relatedLocations/0"), 4);
    assert_eq!(line(&lb, "relatedLocations/0"), 5);
    for log in [&la, &lb] {
        assert_eq!(
            s(
                log,
                "/runs/0/results/0/locations/0/physicalLocation/artifactLocation/uri"
            ),
            file
        );
    }
    assert_eq!(fingerprint(&la), fingerprint(&lb));
}

#[test]
fn sarif_no_race_and_unknown() {
    let c = checked("condvar_free.c");
    assert_eq!(c.outcome.verdict, "no-race");
    let run = check_sarif(&c.sarif);
    assert_eq!(run["results"].as_array().unwrap().len(), 0);
    assert_eq!(run["invocations"][0]["executionSuccessful"], true);

    // No verdict: CBMC stopped at once.
    let unknown = checked::check(
        &e2e("condvar_racy.c"),
        &Options::default(),
        Some(Duration::from_millis(1)),
    );
    assert_eq!(unknown.outcome.verdict, "unknown");
    let run = check_sarif(&unknown.sarif);
    assert_eq!(run["results"].as_array().unwrap().len(), 0);
    let inv = &run["invocations"][0];
    assert_eq!(inv["executionSuccessful"], false);
    assert_eq!(s(inv, "/toolExecutionNotifications/0/level"), "error");
    assert!(!s(inv, "/toolExecutionNotifications/0/message/text").is_empty());

    // And on the command line: exit status 3 and the same log on stdout.
    let out = Command::new(env!("CARGO_BIN_EXE_ladr"))
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .args([
            "tests/e2e/condvar_racy.c",
            "--no-deepen",
            "--format",
            "sarif",
            "--timeout",
            "0.001",
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(3));
    let log: Value = serde_json::from_slice(&out.stdout).unwrap();
    let run = check_sarif(&log);
    assert_eq!(run["results"].as_array().unwrap().len(), 0);
    let inv = &run["invocations"][0];
    assert_eq!(inv["executionSuccessful"], false);
    assert_eq!(s(inv, "/toolExecutionNotifications/0/level"), "error");
    assert!(!s(inv, "/toolExecutionNotifications/0/message/text").is_empty());
}

// ---------------------------------------------------------------------------------------
// The witness.

/// An XML element of the tiny checker below.
#[derive(Debug, Default)]
struct El {
    name: String,
    attrs: HashMap<String, String>,
    children: Vec<El>,
    text: String,
}

impl El {
    fn all<'a>(&'a self, name: &str) -> Vec<&'a El> {
        self.children.iter().filter(|c| c.name == name).collect()
    }
    /// `<data key=KEY>` child's text.
    fn data(&self, key: &str) -> Option<&str> {
        self.children
            .iter()
            .find(|c| c.name == "data" && c.attrs.get("key").map(String::as_str) == Some(key))
            .map(|c| c.text.as_str())
    }
}

/// Undoes the five predefined entities; panics on a bare `&` or an unknown entity.
fn unescape(t: &str) -> String {
    let mut out = String::new();
    let mut rest = t;
    while let Some(i) = rest.find('&') {
        out.push_str(&rest[..i]);
        let end = rest[i..].find(';').expect("entity ends with ;") + i;
        out.push(match &rest[i + 1..end] {
            "amp" => '&',
            "lt" => '<',
            "gt" => '>',
            "quot" => '"',
            "apos" => '\'',
            e => panic!("unknown entity &{e};"),
        });
        rest = &rest[end + 1..];
    }
    out.push_str(rest);
    out
}

/// A minimal well-formedness check and parse: one XML declaration, balanced tags, quoted
/// attributes, no raw `<` or `&` in text or attribute values. Returns the root element.
fn parse_xml(x: &str) -> El {
    let mut rest = x
        .strip_prefix("<?xml ")
        .and_then(|r| r.split_once("?>"))
        .expect("XML declaration")
        .1;
    let mut stack: Vec<El> = vec![El::default()];
    while !rest.is_empty() {
        let lt = rest.find('<').unwrap_or(rest.len());
        let text = &rest[..lt];
        assert!(!text.contains('>'), "raw > in text {text:?}");
        let top = stack.last_mut().unwrap();
        top.text.push_str(&unescape(text));
        rest = &rest[lt..];
        if rest.is_empty() {
            break;
        }
        let gt = rest.find('>').expect("tag ends");
        let tag = &rest[1..gt];
        rest = &rest[gt + 1..];
        if let Some(name) = tag.strip_prefix('/') {
            let el = stack.pop().unwrap();
            assert_eq!(el.name, name, "closing tag matches");
            stack.last_mut().expect("balanced").children.push(el);
            continue;
        }
        let (tag, empty) = match tag.strip_suffix('/') {
            Some(t) => (t, true),
            None => (tag, false),
        };
        let mut parts = tag.splitn(2, char::is_whitespace);
        let name = parts.next().unwrap().to_string();
        assert!(
            !name.is_empty()
                && name
                    .chars()
                    .all(|c| c.is_alphanumeric() || c == ':' || c == '_'),
            "tag name {name:?}"
        );
        let mut attrs = HashMap::new();
        let mut a = parts.next().unwrap_or("").trim();
        while !a.is_empty() {
            let (k, v) = a.split_once('=').expect("attr=");
            let v = v.strip_prefix('"').expect("attribute value quoted");
            let end = v.find('"').expect("closing quote");
            assert!(!v[..end].contains('<'), "raw < in attribute");
            assert!(
                attrs
                    .insert(k.trim().to_string(), unescape(&v[..end]))
                    .is_none(),
                "duplicate attribute {k}"
            );
            a = v[end + 1..].trim_start();
        }
        let el = El {
            name,
            attrs,
            ..El::default()
        };
        if empty {
            stack.last_mut().unwrap().children.push(el);
        } else {
            stack.push(el);
        }
    }
    assert_eq!(stack.len(), 1, "every tag closed");
    let mut doc = stack.pop().unwrap();
    assert!(doc.text.trim().is_empty());
    assert_eq!(doc.children.len(), 1, "one root element");
    doc.children.pop().unwrap()
}

/// The witness of a racy program, checked against the format; returns the edges in path
/// order (an element `path` whose children carry each edge's data as attributes).
fn check_witness(xml: &str, o: &Outcome, path: &Path) -> El {
    let root = parse_xml(xml);
    assert_eq!(root.name, "graphml");
    assert_eq!(root.attrs["xmlns"], "http://graphml.graphdrawing.org/xmlns");
    // Declared keys: id → for.
    let mut keys: HashMap<String, String> = HashMap::new();
    for k in root.all("key") {
        for a in ["attr.name", "attr.type", "for", "id"] {
            assert!(k.attrs.contains_key(a), "key without {a}");
        }
        keys.insert(k.attrs["id"].clone(), k.attrs["for"].clone());
    }
    for (id, scope) in [
        ("witness-type", "graph"),
        ("sourcecodelang", "graph"),
        ("producer", "graph"),
        ("specification", "graph"),
        ("programfile", "graph"),
        ("programhash", "graph"),
        ("architecture", "graph"),
        ("creationtime", "graph"),
        ("entry", "node"),
        ("violation", "node"),
        ("startline", "edge"),
        ("threadId", "edge"),
        ("createThread", "edge"),
        ("enterFunction", "edge"),
    ] {
        assert_eq!(keys.get(id).map(String::as_str), Some(scope), "key {id}");
    }
    let graphs = root.all("graph");
    assert_eq!(graphs.len(), 1);
    let g = graphs[0];
    assert_eq!(g.attrs["edgedefault"], "directed");
    // Every data element uses a declared key of its scope.
    for (scope, els) in [
        ("graph", vec![g]),
        ("node", g.all("node")),
        ("edge", g.all("edge")),
    ] {
        for el in els {
            for d in el.all("data") {
                assert_eq!(keys.get(&d.attrs["key"]).map(String::as_str), Some(scope));
            }
        }
    }
    assert_eq!(g.data("witness-type"), Some("violation_witness"));
    assert_eq!(g.data("sourcecodelang"), Some("C"));
    assert_eq!(
        g.data("producer"),
        Some(format!("ladr {}", env!("CARGO_PKG_VERSION")).as_str())
    );
    assert_eq!(
        g.data("specification"),
        Some("CHECK( init(main()), LTL(G ! data-race) )")
    );
    assert_eq!(
        g.data("programfile"),
        Some(path.display().to_string().as_str())
    );
    assert_eq!(g.data("architecture"), Some("64bit"));
    // The hash, checked by coreutils.
    let sum = Command::new("sha256sum")
        .arg(path)
        .output()
        .expect("sha256sum");
    let sum = String::from_utf8_lossy(&sum.stdout);
    assert_eq!(g.data("programhash"), sum.split_whitespace().next());
    // YYYY-MM-DDTHH:MM:SSZ
    let t = g.data("creationtime").unwrap().as_bytes();
    assert_eq!(t.len(), 20, "{:?}", String::from_utf8_lossy(t));
    for (i, c) in t.iter().enumerate() {
        let want = match i {
            4 | 7 => b'-',
            10 => b'T',
            13 | 16 => b':',
            19 => b'Z',
            _ => b'0',
        };
        assert!(if want == b'0' {
            c.is_ascii_digit()
        } else {
            *c == want
        });
    }
    // Nodes: unique ids, one entry, one violation.
    let nodes = g.all("node");
    let ids: HashSet<&str> = nodes.iter().map(|n| n.attrs["id"].as_str()).collect();
    assert_eq!(ids.len(), nodes.len(), "node ids unique");
    let entry: Vec<&str> = nodes
        .iter()
        .filter(|n| n.data("entry") == Some("true"))
        .map(|n| n.attrs["id"].as_str())
        .collect();
    let violation: Vec<&str> = nodes
        .iter()
        .filter(|n| n.data("violation") == Some("true"))
        .map(|n| n.attrs["id"].as_str())
        .collect();
    assert_eq!(entry.len(), 1);
    assert_eq!(violation.len(), 1);
    // Edges: endpoints exist; they form one path from the entry to the violation node.
    let edges = g.all("edge");
    assert!(!edges.is_empty());
    let mut next: HashMap<&str, &El> = HashMap::new();
    for e in &edges {
        for end in ["source", "target"] {
            assert!(ids.contains(e.attrs[end].as_str()), "edge {end} exists");
        }
        assert!(next.insert(e.attrs["source"].as_str(), e).is_none());
        assert!(e.data("startline").unwrap().parse::<u32>().unwrap() >= 1);
        assert!(e.data("threadId").is_some());
    }
    let mut at = entry[0];
    let mut path_edges = vec![];
    while let Some(e) = next.get(at) {
        path_edges.push(*e);
        at = e.attrs["target"].as_str();
    }
    assert_eq!(path_edges.len(), edges.len(), "one path through all edges");
    assert_eq!(at, violation[0], "the path ends in the violation node");
    let last = path_edges.last().unwrap();
    let second = &o.races.first().unwrap().accesses[1];
    assert_eq!(
        last.data("startline"),
        Some(second.line.to_string().as_str())
    );
    assert_eq!(
        last.data("threadId"),
        Some(second.thread.slot.to_string().as_str())
    );
    // Edge data in path order, for the callers' checks.
    El {
        name: "path".into(),
        children: path_edges
            .iter()
            .map(|e| El {
                name: "edge".into(),
                attrs: ["startline", "threadId", "createThread", "enterFunction"]
                    .iter()
                    .filter_map(|k| e.data(k).map(|v| (k.to_string(), v.to_string())))
                    .collect(),
                ..El::default()
            })
            .collect(),
        ..El::default()
    }
}

#[test]
fn witness_condvar_racy() {
    let c = checked("condvar_racy.c");
    let (o, path) = (&c.outcome, &c.path);
    let xml = witness::graphml(o, path, "64bit");
    let p = check_witness(&xml, o, path);
    let edges: Vec<&HashMap<String, String>> = p.children.iter().map(|e| &e.attrs).collect();
    let get = |e: &HashMap<String, String>, k: &str| e.get(k).cloned();
    // main creates producer (slot 1) at line 24 and consumer (slot 2) at line 25.
    let creates: Vec<(String, String)> = edges
        .iter()
        .filter_map(|e| Some((get(e, "startline")?, get(e, "createThread")?)))
        .collect();
    assert_eq!(
        creates,
        vec![("24".into(), "1".into()), ("25".into(), "2".into())]
    );
    // Each thread's first edge enters its start routine, after its creation.
    for (slot, f) in [("0", "main"), ("1", "producer"), ("2", "consumer")] {
        let first = edges
            .iter()
            .position(|e| get(e, "threadId").as_deref() == Some(slot))
            .unwrap();
        assert_eq!(get(edges[first], "enterFunction").as_deref(), Some(f));
        if slot != "0" {
            let created = edges
                .iter()
                .position(|e| get(e, "createThread").as_deref() == Some(slot))
                .unwrap();
            assert!(created < first);
        }
    }
    // The producer's last edge is the first access (its write, line 11); the last edge is
    // the second (the consumer's read, line 19), after it (the consumer may unlock between).
    let n = edges.len();
    let producer_last = edges
        .iter()
        .rposition(|e| get(e, "threadId").as_deref() == Some("1"))
        .unwrap();
    assert_eq!(
        get(edges[producer_last], "startline").as_deref(),
        Some("11")
    );
    assert!(producer_last < n - 1);
    assert_eq!(get(edges[n - 1], "startline").as_deref(), Some("19"));
    assert_eq!(get(edges[n - 1], "threadId").as_deref(), Some("2"));
}

#[test]
fn witness_global_racy_and_loop_created_threads() {
    let c = checked("global_racy.c");
    let (o, path) = (&c.outcome, &c.path);
    let xml = witness::graphml(o, path, "32bit");
    let p = parse_xml(&xml);
    let g = &p.all("graph")[0];
    assert_eq!(g.data("architecture"), Some("32bit"));
    let xml64 = witness::graphml(o, path, "64bit");
    check_witness(&xml64, o, path);

    // Two threads created by one pthread_create line in a loop: one createThread edge each.
    let c = checked("loop_create_racy.c");
    let (o, path) = (&c.outcome, &c.path);
    let xml = witness::graphml(o, path, "64bit");
    let p = check_witness(&xml, o, path);
    let creates: Vec<(String, String)> = p
        .children
        .iter()
        .filter_map(|e| {
            Some((
                e.attrs.get("startline")?.clone(),
                e.attrs.get("createThread")?.clone(),
            ))
        })
        .collect();
    // Both racing threads are created at line 7 (which two of the three CBMC picks is its
    // choice, and whether the third is created before the race too); every creation is at
    // line 7 and creates a thread once.
    let race = o.races.first().unwrap();
    let mut got = creates.clone();
    got.sort();
    got.dedup();
    assert_eq!(got.len(), creates.len(), "{creates:?}");
    assert!(got.iter().all(|(line, _)| line == "7"), "{got:?}");
    for a in &race.accesses {
        let want = ("7".to_string(), a.thread.slot.to_string());
        assert!(got.contains(&want), "{want:?} not in {got:?}");
    }
}

#[test]
fn witness_without_race_is_trivial_correctness_witness() {
    let c = checked("condvar_free.c");
    let (o, path) = (&c.outcome, &c.path);
    assert!(o.races.is_empty());
    let root = parse_xml(&witness::graphml(o, path, "64bit"));
    let g = &root.all("graph")[0];
    assert_eq!(g.data("witness-type"), Some("correctness_witness"));
    assert_eq!(g.all("node").len(), 1);
    assert_eq!(g.all("node")[0].data("entry"), Some("true"));
    assert!(g.all("edge").is_empty());
}
