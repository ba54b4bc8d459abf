//! Trace mapping without CBMC: CBMC's recorded JSON for the sequential program of a small
//! racy program (`tests/data/traces/NAME.i` → `NAME.cbmc.json`) is read back through
//! `ladr_check::recorded::one` and `ladr_report::outcome`, and the report must name the racing
//! lines, the threads and the interleaving in the user's file — never a line of the pthread
//! model or of generated code.
//!
//! The recording belongs to one printed sequential program, whose FNV-1a hash is kept in
//! `NAME.seq.fnv`: when a change to the passes or the printer changes that program, the test
//! says so; re-record with `cargo test --release --test it -- trace_mapping:: --ignored` (needs
//! CBMC) and review the diff of the recorded files.

use ladr_c::frontend::{self, Parsed};
use ladr_check::recorded::{self, Translated};
use ladr_ir::program::Options;
use ladr_report::{Outcome, Position};
use std::path::{Path, PathBuf};

fn dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/traces")
}

fn load(name: &str) -> (Parsed, Translated, String) {
    let parsed = frontend::load(&dir().join(format!("{name}.i")), &Default::default())
        .expect("the fixture parses");
    let t = recorded::translate(&parsed, &Options::default()).expect("translates");
    let hash = format!(
        "{:016x}\n",
        ladr_report::sarif::fnv1a64(t.printed.text.as_bytes())
    );
    (parsed, t, hash)
}

/// The outcome built from the recorded CBMC output of fixture `name`.
fn replay(name: &str) -> Outcome {
    replay_edited(name, |s| s)
}

/// The outcome built from the recorded CBMC output of fixture `name`, edited by `edit`.
fn replay_edited(name: &str, edit: impl Fn(String) -> String) -> Outcome {
    let (parsed, t, hash) = load(name);
    let recorded = std::fs::read_to_string(dir().join(format!("{name}.seq.fnv"))).unwrap();
    assert_eq!(
        hash, recorded,
        "{name}: the sequential program changed since CBMC's output was recorded; re-record \
         with `cargo test --release --test it -- trace_mapping:: --ignored`"
    );
    let stdout = edit(std::fs::read_to_string(dir().join(format!("{name}.cbmc.json"))).unwrap());
    let outcome = recorded::cbmc_outcome(Some(10), stdout, String::new());
    let answer = recorded::one(&parsed, t, outcome, &Options::default());
    ladr_report::outcome(&answer, &parsed.path, 0.0)
}

fn lines(ps: &[Position]) -> Vec<u32> {
    ps.iter().map(|p| p.line).collect()
}

/// Every position of the outcome is in the user's file.
fn all_in(o: &Outcome, file: &str) {
    let race = o.races.first().expect("a race");
    for a in &race.accesses {
        assert_eq!(a.file, file);
    }
    for c in &race.interleaving {
        for p in c.lines.iter().chain(c.steps.iter().map(|s| &s.pos)) {
            assert_eq!(p.file, file, "{c:?}");
        }
    }
}

/// A context as (thread slot, round, lines).
type Shape = (usize, usize, Vec<u32>);

/// The race of `o` (all of it in `file`), its two racing lines sorted, and its contexts.
fn outline<'a>(o: &'a Outcome, file: &str) -> (&'a ladr_report::Race, Vec<u32>, Vec<Shape>) {
    all_in(o, file);
    let race = o.races.first().unwrap();
    let mut got: Vec<u32> = race.accesses.iter().map(|a| a.line).collect();
    got.sort();
    let il = race
        .interleaving
        .iter()
        .map(|c| (c.thread.slot, c.round, lines(&c.lines)))
        .collect();
    (race, got, il)
}

#[test]
fn mutex_racy_maps_to_the_user_lines() {
    let o = replay("mutex_racy");
    let (race, got, il) = outline(&o, "mutex_racy.c");
    assert_eq!(got, [6, 10]);
    // main creates both threads; inc runs lines 4 to 6 (its write last); peek's read ends
    // the interleaving (CBMC may split inc's lines over rounds differently).
    // (The round of main's first shown context is CBMC's choice: an empty first context
    // of main leaves the creates to round 2.)
    assert_eq!((il[0].0, &il[0].2), (0usize, &vec![12, 13, 14]));
    assert!([1, 2].contains(&il[0].1), "{il:?}");
    assert_eq!(il.last().unwrap(), &(2usize, 2usize, vec![10]));
    assert_eq!(lines_of(&il, 1), [4, 5, 6]);
    // The model's lock call is shown as the user's call, under its user name.
    let calls: Vec<&str> = race.interleaving[1]
        .steps
        .iter()
        .map(|s| s.what.as_str())
        .filter(|w| w.starts_with("call "))
        .collect();
    assert_eq!(calls, ["call pthread_mutex_lock"]);
}

/// A counterexample whose race names a first access no site stands for (site 0: a flag
/// found set that no instrumented access of C1 set) is an internal error that says which
/// sites it named and what they are, never a race or a plain "unknown".
#[test]
fn a_race_without_its_first_site_is_an_internal_error() {
    let o = replay_edited("mutex_racy", |s| {
        let at = s
            .rfind(r#""lhs":"__ladr_first_site""#)
            .expect("the first site");
        let data = at + s[at..].find(r#""data":""#).unwrap() + r#""data":""#.len();
        let end = data + s[data..].find('"').unwrap();
        format!("{}0{}", &s[..data], &s[end..])
    });
    assert_eq!(o.verdict, "unknown");
    assert!(o.races.is_empty());
    let reason = o.reason.expect("a reason");
    assert!(
        reason.starts_with("internal error: ") && reason.contains("sites 0 (no site"),
        "{reason}"
    );
    assert!(reason.contains("mutex_racy.c:"), "{reason}");
}

#[test]
fn condvar_racy_maps_to_the_user_lines() {
    let o = replay("condvar_racy");
    let (_, got, il) = outline(&o, "condvar_racy.c");
    assert_eq!(got, [11, 19]);
    // main creates both; the producer signals, unlocks and writes `data` (line 11) in its
    // last context; the consumer's last context ends at its read (line 19). Either access
    // may come second (CBMC's choice of counterexample): the last context ends at it.
    assert_eq!(il[0], (0usize, 1usize, vec![23, 24, 25]));
    assert_eq!(lines_of(&il, 1), [5, 6, 7, 8, 10, 11]);
    let last = il.last().unwrap();
    assert!(
        matches!((last.0, last.2.last()), (1, Some(&11)) | (2, Some(&19))),
        "{last:?}"
    );
    assert!(lines_of(&il, 2).starts_with(&[14, 15]));
}

/// The lines slot `slot` ran, over all its contexts, in order.
fn lines_of(il: &[Shape], slot: usize) -> Vec<u32> {
    il.iter()
        .filter(|c| c.0 == slot)
        .flat_map(|c| c.2.clone())
        .collect()
}

/// The printed sequential program's line map: the model's lines are built-in, and every
/// line from the source maps into the fixture's own files (before `Origin`, the model's
/// offsets were read as offsets of the user's text and landed in its headers).
#[test]
fn model_lines_never_map_into_user_files() {
    use ladr_c::origin::Origin;
    let (parsed, t, _) = load("mutex_racy");
    let text: Vec<&str> = t.printed.text.lines().collect();
    assert_eq!(text.len(), t.printed.origins.len());
    let mut in_model = false;
    let (mut builtin, mut source) = (0, 0);
    for (line, origin) in text.iter().zip(&t.printed.origins) {
        if line.starts_with("int __ladr_pthread_mutex_lock(") {
            in_model = true;
        } else if line.starts_with('}') {
            in_model = false;
        }
        match origin {
            Origin::Builtin(_) => builtin += 1,
            Origin::Source(span) => {
                source += 1;
                assert!(!in_model, "a model line with a user origin: {line}");
                let file = parsed.map.lookup(span.start).file;
                assert!(
                    ["mutex_racy.c", "mini_pthread.h"].contains(&file.as_str()),
                    "{file}"
                );
            }
            Origin::Generated => {}
        }
    }
    assert!(
        builtin > 20 && source > 10,
        "{builtin} built-in, {source} source lines"
    );
}

/// CBMC's JSON without what the report never reads, so the recording stays small (MBs →
/// tens of kB): hidden steps and the static initialisation (steps outside any function:
/// shadow memory of every object of the model), and the working directory.
fn trim(stdout: &str) -> String {
    let mut doc: serde_json::Value = serde_json::from_str(stdout).expect("CBMC's JSON");
    for msg in doc.as_array_mut().expect("a list of messages") {
        let Some(trace) = msg.get_mut("trace").and_then(|t| t.as_array_mut()) else {
            continue;
        };
        trace.retain(|s| {
            s["hidden"] != serde_json::Value::Bool(true)
                && s["sourceLocation"].get("function").is_some()
        });
        for s in trace {
            if let Some(loc) = s.get_mut("sourceLocation").and_then(|l| l.as_object_mut()) {
                loc.remove("workingDirectory");
            }
        }
    }
    serde_json::to_string(&doc).unwrap()
}

/// Re-records CBMC's output for every fixture (needs CBMC; run on purpose only).
#[test]
#[ignore]
fn record() {
    let cbmc = ladr_cbmc::locate(None).expect("CBMC (scripts/install-cbmc)");
    for name in ["mutex_racy", "condvar_racy"] {
        let (_, t, hash) = load(name);
        let out = recorded::record(&t, &ladr_cbmc::Options::new(cbmc.clone())).expect("CBMC runs");
        assert_eq!(out.exit_code, Some(10), "{name}: {}", out.stderr);
        std::fs::write(dir().join(format!("{name}.cbmc.json")), trim(&out.stdout)).unwrap();
        std::fs::write(dir().join(format!("{name}.seq.fnv")), hash).unwrap();
    }
}
