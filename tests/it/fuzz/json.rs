//! The JSON targets: compile databases, baselines (ladr's own SARIF and JSON) and swarm
//! manifests, and the manifest errors the fuzzing found.

use super::mutate::mutate;
use super::{drive, keep, DEFAULT_CASES, MAX_TEXT};
use std::path::Path;
use std::process::Command;

const JSON_DICT: &[&str] = &[
    "{",
    "}",
    "[",
    "]",
    ",",
    ":",
    "\"",
    "\\",
    "\\u0000",
    "\\ud800",
    "\\\"",
    "null",
    "true",
    "false",
    "0",
    "-0",
    "1",
    "-1",
    "4294967296",
    "18446744073709551616",
    "1e400",
    "0.5",
    "\"\"",
    "\"x\"",
    "[]",
    "{}",
    "\n",
    " ",
    "é",
    "\u{1b}[2J",
    "\"directory\"",
    "\"file\"",
    "\"command\"",
    "\"arguments\"",
    "\"output\"",
    "\"cc\"",
    "\"-I\"",
    "\"-Iinc\"",
    "\"-D\"",
    "\"-include\"",
    "\"-o\"",
    "\"-x\"",
    "\"-std=c11\"",
    "\"a.c\"",
    "\"\\\"\"",
    "\"'\"",
    "\"runs\"",
    "\"results\"",
    "\"partialFingerprints\"",
    "\"ladrRace/v1\"",
    "\"baselineState\"",
    "\"absent\"",
    "\"message\"",
    "\"text\"",
    "\"races\"",
    "\"harnesses\"",
    "\"outcome\"",
    "\"fingerprint\"",
    "\"schema\"",
    "\"files\"",
    "\"cpp_args\"",
    "\"compile_commands\"",
    "\"rounds\"",
    "\"unwind\"",
    "\"max_unwind\"",
    "\"ilp32\"",
    "\"instances\"",
    "\"contexts\"",
    "\"prog.i\"",
    "\"missing.i\"",
    "100",
    "101",
    "1000",
    "100000",
];

/// A JSON error names `path`; a syntax error (serde_json's "at line L column C") also a
/// position.
fn json_error_located(message: &str, path: &Path, syntax: bool) -> bool {
    let named = message.contains(&path.display().to_string());
    let positioned = message.contains(" line ") && message.contains(" column ");
    named && (!syntax || positioned)
}

const COMPDB_SEED: &str = r#"[
  { "directory": "DIR", "command": "cc -I inc -DA=\"x y\" -c a.c -o a.o", "file": "a.c" },
  { "directory": "DIR/sub", "arguments": ["cc", "-I..", "-include", "cfg.h", "-std=gnu11", "-c", "../b.c"], "file": "../b.c", "output": "b.o" }
]"#;

#[test]
fn compile_databases() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    std::fs::create_dir_all(d.join("sub")).unwrap();
    let seed = COMPDB_SEED.replace("DIR", &d.display().to_string());
    let path = d.join("compile_commands.json");
    drive("compile-db", DEFAULT_CASES * 4, |rng, f| {
        let text = mutate(rng, &seed, JSON_DICT, MAX_TEXT);
        std::fs::write(&path, &text).map_err(|e| e.to_string())?;
        match ladr_project::compdb::Database::load(d) {
            Ok(db) => {
                let files = vec![d.join("a.c"), d.join("b.c"), d.join("main.c")];
                let _ = ladr_project::compdb::inputs(&files, Some(&db), &["-DX".into()]);
                Ok(())
            }
            Err(e) => {
                f.rejected += 1;
                let syntax = true; // every error of a compile database is located

                if json_error_located(&e.message, &path, syntax) {
                    Ok(())
                } else {
                    Err(format!(
                        "not located: {} (input: {})",
                        e.message,
                        keep("compile-db", &text)
                    ))
                }
            }
        }
    });
}

/// ladr's own documents as baselines: a SARIF log and a combined JSON.
fn baseline_seeds() -> Vec<String> {
    let sarif = serde_json::json!({
        "version": "2.1.0",
        "runs": [{
            "tool": { "driver": { "name": "ladr", "rules": [{ "id": "data-race" }] } },
            "results": [
                { "ruleId": "data-race", "message": { "text": "race on g" },
                  "partialFingerprints": { "ladrRace/v1": "0011223344556677" },
                  "locations": [{ "physicalLocation": { "artifactLocation": { "uri": "a.c" },
                                  "region": { "startLine": 3, "startColumn": 5 } } }] },
                { "ruleId": "data-race", "message": { "text": "gone" }, "baselineState": "absent",
                  "partialFingerprints": { "ladrRace/v1": "8899aabbccddeeff" } }
            ]
        }]
    });
    let json = serde_json::json!({
        "harnesses": [
            { "name": "h", "outcome": { "verdict": "race", "races": [
                { "fingerprint": "0011223344556677", "message": "race on g" } ] } }
        ]
    });
    let single = serde_json::json!({ "races": [ { "fingerprint": "ff", "message": "m" } ] });
    vec![
        serde_json::to_string_pretty(&sarif).unwrap(),
        serde_json::to_string_pretty(&json).unwrap(),
        serde_json::to_string(&single).unwrap(),
    ]
}

#[test]
fn baselines() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("baseline.json");
    let seeds = baseline_seeds();
    drive("baseline", DEFAULT_CASES * 4, |rng, f| {
        let seed = &seeds[rng.usize(..seeds.len())];
        let text = mutate(rng, seed, JSON_DICT, MAX_TEXT);
        std::fs::write(&path, &text).map_err(|e| e.to_string())?;
        match ladr_project::baseline::load(&path) {
            Ok(_) => Ok(()),
            Err(e) => {
                f.rejected += 1;
                let syntax = serde_json::from_str::<serde_json::Value>(&text).is_err();
                if json_error_located(&e.message, &path, syntax) {
                    Ok(())
                } else {
                    Err(format!(
                        "not located: {} (input: {})",
                        e.message,
                        keep("baseline", &text)
                    ))
                }
            }
        }
    });
}

/// A small preprocessed program for the manifests to name (`.i`: no preprocessor run).
const SWARM_PROGRAM: &str = "int g;\nvoid *w(void *a) { g = 1; return 0; }\n\
    typedef unsigned long pthread_t;\n\
    int pthread_create(pthread_t *t, const void *attr, void *(*f)(void *), void *arg);\n\
    int main(void) { pthread_t t; pthread_create(&t, 0, w, 0); g = 2; return 0; }\n";

#[test]
fn swarm_manifests() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    std::fs::write(d.join("prog.i"), SWARM_PROGRAM).unwrap();
    let swarm = d.join("swarm");
    std::fs::create_dir_all(&swarm).unwrap();
    let manifest = swarm.join("manifest.json");
    let seed = serde_json::to_string_pretty(&serde_json::json!({
        "schema": 1,
        "tool": { "name": "ladr", "version": "0.1.0" },
        "files": [d.join("prog.i")],
        "cpp_args": ["-DX"],
        "compile_commands": null,
        "rounds": 2,
        "unwind": 2,
        "max_unwind": 100,
        "ilp32": false,
        "contexts": 4,
        "instances": 2,
        "timeout_s": 0
    }))
    .unwrap();
    let dict: Vec<String> = JSON_DICT
        .iter()
        .map(|s| s.to_string())
        .chain([format!("\"{}\"", d.join("prog.i").display())])
        .collect();
    let dict: Vec<&str> = dict.iter().map(String::as_str).collect();
    drive("swarm-manifest", DEFAULT_CASES, |rng, f| {
        let text = mutate(rng, &seed, &dict, MAX_TEXT);
        // The manifest names files to preprocess: only the `.i` programs here (a `.c`
        // would run gcc with the manifest's arguments: issue 28 item 3's tests).
        if let Ok(v) = serde_json::from_str::<serde_json::Value>(&text) {
            let files_ok = v["files"].as_array().is_none_or(|fs| {
                fs.iter()
                    .all(|f| f.as_str().is_none_or(|s| s.ends_with(".i")))
            });
            if !files_ok || !v["compile_commands"].is_null() {
                return Ok(());
            }
        }
        std::fs::write(&manifest, &text).map_err(|e| e.to_string())?;
        let out = Command::new("sh")
            .arg("-c")
            // A memory limit (KiB of address space): a blow-up is an abort, not a swap storm.
            .arg("ulimit -v 4000000; exec \"$0\" \"$@\"")
            .arg(env!("CARGO_BIN_EXE_ladr"))
            .args(["swarm", "collect", "--color", "never"])
            .arg(&swarm)
            .env("LADR_CBMC", "/nonexistent")
            .output()
            .map_err(|e| e.to_string())?;
        let stderr = String::from_utf8_lossy(&out.stderr);
        match out.status.code() {
            Some(0 | 1 | 3) => Ok(()),
            Some(2) => {
                f.rejected += 1;
                // The swarm directory (the manifest, an instance's file) or a file the
                // manifest names.
                let named: Vec<String> = serde_json::from_str::<serde_json::Value>(&text)
                    .ok()
                    .and_then(|v| v["files"].as_array().cloned())
                    .into_iter()
                    .flatten()
                    .filter_map(|f| f.as_str().map(String::from))
                    .collect();
                if stderr.contains(&swarm.display().to_string())
                    || named.iter().any(|f| stderr.contains(&format!("`{f}`")))
                {
                    Ok(())
                } else {
                    Err(format!(
                        "not located: {stderr} (input: {})",
                        keep("swarm-manifest", &text)
                    ))
                }
            }
            c => Err(format!(
                "exit {c:?}: {stderr} (input: {})",
                keep("swarm-manifest", &text)
            )),
        }
    });
}

/// Found by `swarm_manifests`: `rounds: 100000` in a manifest made collect allocate until
/// it aborted ("memory allocation of 1 bytes failed" under a 4 GB limit); the numbers are
/// now checked against the command line's ranges.
#[test]
fn a_swarm_manifest_out_of_range_names_its_field() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("prog.i"), SWARM_PROGRAM).unwrap();
    let swarm = dir.path().join("swarm");
    std::fs::create_dir_all(&swarm).unwrap();
    for (field, value) in [
        ("rounds", 100_000u64),
        ("rounds", 0),
        ("unwind", 4_294_967_298),
        ("max_unwind", 1001),
        ("instances", 100_001),
    ] {
        let mut manifest = serde_json::json!({
            "schema": 1, "files": [dir.path().join("prog.i")], "cpp_args": [],
            "compile_commands": null, "rounds": 2, "unwind": 2, "max_unwind": 100,
            "ilp32": false, "instances": 1
        });
        manifest[field] = value.into();
        std::fs::write(swarm.join("manifest.json"), manifest.to_string()).unwrap();
        let out = Command::new("sh")
            .arg("-c")
            .arg("ulimit -v 4000000; exec \"$0\" \"$@\"")
            .arg(env!("CARGO_BIN_EXE_ladr"))
            .args(["swarm", "collect", "--color", "never"])
            .arg(&swarm)
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{field} = {value}: {stderr}");
        assert!(
            stderr.contains(&format!("`{field}`")),
            "{field} = {value}: {stderr}"
        );
    }
}

/// Found by `swarm_manifests`: a manifest with no files made collect say "no C file to
/// check", naming neither the manifest nor the field.
#[test]
fn a_swarm_manifest_without_files_names_its_field() {
    let dir = tempfile::tempdir().unwrap();
    let manifest = serde_json::json!({
        "schema": 1, "files": [], "cpp_args": [], "compile_commands": null, "rounds": 2,
        "unwind": 2, "max_unwind": 100, "ilp32": false, "instances": 1
    });
    std::fs::write(dir.path().join("manifest.json"), manifest.to_string()).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_ladr"))
        .args(["swarm", "collect", "--color", "never"])
        .arg(dir.path())
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("manifest.json") && stderr.contains("`files`"),
        "{stderr}"
    );
}
