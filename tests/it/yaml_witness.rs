//! YAML violation witnesses, format 2.2 (`--witness-format yaml`): the text is YAML that a
//! YAML parser reads as the document ladr means, it validates against the format's schema
//! (tests/data/witness-2.2), and it says what the race is: thread creations as
//! `function_enter` waypoints of the creating thread, then a final segment with one `target`
//! per racing access. Checked on e2e programs and on racy SV-COMP tasks when the corpus is
//! present (loudly skipped otherwise). Needs CBMC.

use crate::common;

use serde_json::Value;
use std::path::Path;
use std::process::Command;

fn schema() -> jsonschema::Validator {
    let text = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/data/witness-2.2/violation-witness-2.2.schema.json"),
    )
    .expect("the schema");
    jsonschema::validator_for(&serde_json::from_str(&text).unwrap()).expect("a valid schema")
}

/// A YAML document as JSON (the subset witnesses use: mappings, sequences, strings, integers).
fn to_json(y: &yaml_rust2::Yaml) -> Value {
    use yaml_rust2::Yaml;
    match y {
        Yaml::Array(a) => Value::Array(a.iter().map(to_json).collect()),
        Yaml::Hash(h) => Value::Object(
            h.iter()
                .map(|(k, v)| (k.as_str().expect("string keys").to_string(), to_json(v)))
                .collect(),
        ),
        Yaml::String(s) => Value::String(s.clone()),
        Yaml::Integer(i) => Value::from(*i),
        Yaml::Boolean(b) => Value::Bool(*b),
        Yaml::Null => Value::Null,
        other => panic!("unexpected YAML node {other:?}"),
    }
}

/// Parses and validates a witness; returns it as JSON.
fn valid(text: &str, what: &str) -> Value {
    let docs = yaml_rust2::YamlLoader::load_from_str(text)
        .unwrap_or_else(|e| panic!("{what}: not YAML ({e}):\n{text}"));
    assert_eq!(docs.len(), 1, "{what}: one document");
    let v = to_json(&docs[0]);
    let errors: Vec<String> = schema().iter_errors(&v).map(|e| e.to_string()).collect();
    assert!(errors.is_empty(), "{what}: {errors:?}\n{text}");
    v
}

/// Runs ladr with a YAML witness into a temporary file: exit status, stdout, the witness.
fn run(args: &[&str]) -> (i32, String, Option<String>) {
    let dir = tempfile::tempdir().unwrap();
    let w = dir.path().join("witness.yml");
    let out = Command::new(env!("CARGO_BIN_EXE_ladr"))
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .args(args)
        .args(["--witness-format", "yaml", "--witness"])
        .arg(&w)
        .output()
        .expect("run ladr");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        std::fs::read_to_string(&w).ok(),
    )
}

/// The waypoints of each segment.
fn segments(v: &Value) -> Vec<Vec<&Value>> {
    v[0]["content"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| {
            s["segment"]
                .as_array()
                .unwrap()
                .iter()
                .map(|w| &w["waypoint"])
                .collect()
        })
        .collect()
}

#[test]
fn e2e_witnesses_name_the_creations_and_both_accesses() {
    let (code, _, w) = run(&["tests/e2e/lock_kinds_racy.c"]);
    assert_eq!(code, 1);
    let text = w.expect("a witness is written for a race");
    let v = valid(&text, "lock_kinds_racy.c");
    let meta = &v[0]["metadata"];
    assert_eq!(meta["format_version"], "2.2");
    assert_eq!(meta["task"]["data_model"], "LP64");
    assert_eq!(meta["task"]["specification"], "G ! data-race");
    let segs = segments(&v);
    // main creates producer (line 30) and reader (line 31): threads 1 and 2, in that order,
    // each at the `)` of its pthread_create.
    assert_eq!(segs.len(), 3, "{text}");
    for (s, line, column) in [(&segs[0], 30, 37), (&segs[1], 31, 35)] {
        assert_eq!(s.len(), 1);
        assert_eq!(s[0]["type"], "function_enter");
        assert_eq!(s[0]["thread_id"], 0);
        assert_eq!(s[0]["location"]["line"], line);
        assert_eq!(s[0]["location"]["column"], column);
        assert_eq!(s[0]["location"]["function"], "main");
    }
    let fin = &segs[2];
    assert_eq!(fin.len(), 2, "{text}");
    let mut targets: Vec<(i64, i64, &str)> = fin
        .iter()
        .map(|w| {
            assert_eq!(w["type"], "target");
            assert_eq!(w["action"], "follow");
            (
                w["thread_id"].as_i64().unwrap(),
                w["location"]["line"].as_i64().unwrap(),
                w["location"]["function"].as_str().unwrap(),
            )
        })
        .collect();
    targets.sort();
    assert_eq!(targets, vec![(1, 12, "producer"), (2, 19, "reader")]);

    // A race in main and a thread: main is thread 0.
    let (code, _, w) = run(&["tests/e2e/two_rounds_racy.c", "--32"]);
    assert_eq!(code, 1);
    let v = valid(&w.unwrap(), "two_rounds_racy.c");
    assert_eq!(v[0]["metadata"]["task"]["data_model"], "ILP32");
    let segs = segments(&v);
    let ids: Vec<i64> = segs
        .last()
        .unwrap()
        .iter()
        .map(|w| w["thread_id"].as_i64().unwrap())
        .collect();
    assert!(ids.contains(&0) && ids.contains(&1), "{ids:?}");

    // No race: no witness.
    let (code, _, w) = run(&["tests/e2e/lock_kinds_free.c"]);
    assert_eq!(code, 0);
    assert!(w.is_none());
}

/// The schema refuses what the format forbids (so the validation above can fail).
#[test]
fn the_schema_rejects_broken_witnesses() {
    let (_, _, w) = run(&["tests/e2e/global_racy.c"]);
    let good = valid(&w.unwrap(), "global_racy.c");
    let s = schema();
    let last = good[0]["content"].as_array().unwrap().len() - 1;
    let mut bad = good.clone();
    bad[0]["content"][last]["segment"][0]["waypoint"]["action"] = "avoid".into();
    assert!(!s.is_valid(&bad), "a target must be followed");
    let mut bad = good.clone();
    bad[0]["content"][0]["segment"][0]["waypoint"]["thread_id"] = (-1).into();
    assert!(!s.is_valid(&bad));
    let mut bad = good.clone();
    bad[0]["entry_type"] = "invariant_set".into();
    assert!(!s.is_valid(&bad));
    let mut bad = good;
    bad[0]["metadata"]["task"]["data_model"] = "64bit".into();
    assert!(!s.is_valid(&bad));
}

/// Racy SV-COMP tasks (expected `false`, from the corpus's index.tsv): in SV-COMP mode with
/// `--witness-format yaml`, every race found gives a witness that validates; at least five.
#[test]
fn svcomp_witnesses_validate() {
    let Some(root) = common::svcomp_root() else {
        return;
    };
    let index = std::fs::read_to_string(root.join("index.tsv")).unwrap();
    let prp = root.join("c/properties/no-data-race.prp");
    let tasks: Vec<&str> = index
        .lines()
        .skip(1)
        .filter_map(|l| {
            let f: Vec<&str> = l.split('\t').collect();
            (f.len() > 4 && f[2] == "false" && f[4].parse::<u32>().is_ok_and(|n| n < 1300))
                .then_some(f[0])
        })
        .collect();
    let mut validated = vec![];
    for task in tasks {
        if validated.len() == 6 {
            break;
        }
        let yml = root.join("c").join(task);
        let (code, out, w) = run(&[
            "--svcomp",
            "--property-file",
            prp.to_str().unwrap(),
            // Generous: under load a race found in a second alone takes many.
            "--timeout",
            "120",
            yml.to_str().unwrap(),
        ]);
        if code != 1 {
            continue; // no race found in time: nothing to validate
        }
        assert!(out.contains("SV-COMP result: false(no-data-race)"), "{out}");
        let text = w.unwrap_or_else(|| panic!("{task}: a race but no witness"));
        let v = valid(&text, task);
        let fin = segments(&v).pop().unwrap();
        assert_eq!(fin.len(), 2, "{task}: two targets\n{text}");
        eprintln!("validated the YAML witness of {task}");
        validated.push(task);
    }
    assert!(
        validated.len() >= 5,
        "only {} racy tasks gave a witness: {validated:?}",
        validated.len()
    );
}
