//! The GitHub Action of contrib/github-action: it parses as YAML, each shell step is valid
//! bash, every `ladr` option it passes exists in this ladr's `--help`, the scripts it runs
//! exist, and the actions it uses are the ones the README documents.

use std::path::Path;
use std::process::Command;
use yaml_rust2::{Yaml, YamlLoader};

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

fn load(rel: &str) -> Yaml {
    let text = std::fs::read_to_string(Path::new(ROOT).join(rel)).unwrap();
    let mut docs = YamlLoader::load_from_str(&text).unwrap_or_else(|e| panic!("{rel}: {e}"));
    assert_eq!(docs.len(), 1, "{rel}");
    docs.remove(0)
}

/// The help text of `ladr ARGS --help`.
fn help(args: &[&str]) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_ladr"))
        .args(args)
        .arg("--help")
        .output()
        .unwrap();
    assert!(out.status.success());
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// `${{ … }}` expressions replaced by a word, as the runner would substitute them.
fn substituted(script: &str) -> String {
    let mut out = String::new();
    let mut rest = script;
    while let Some(at) = rest.find("${{") {
        out.push_str(&rest[..at]);
        let end = rest[at..].find("}}").expect("closed expression") + at + 2;
        out.push_str("EXPR");
        rest = &rest[end..];
    }
    out.push_str(rest);
    out
}

#[test]
fn the_action_runs_commands_that_exist() {
    let action = load("contrib/github-action/action.yml");
    assert_eq!(action["runs"]["using"].as_str(), Some("composite"));
    let inputs = action["inputs"].as_hash().unwrap();
    let steps = action["runs"]["steps"].as_vec().unwrap();
    let check_help = help(&["check"]);
    let mut ladr_calls = 0;
    let mut uses = vec![];
    for step in steps {
        if let Some(u) = step["uses"].as_str() {
            uses.push(u.to_string());
            continue;
        }
        let script = step["run"].as_str().expect("a step runs or uses");
        assert_eq!(step["shell"].as_str(), Some("bash"), "{script}");
        // Valid bash.
        let script = substituted(script);
        let syntax = Command::new("bash")
            .args(["-n", "-c", &script])
            .output()
            .unwrap();
        assert!(
            syntax.status.success(),
            "{script}\n{}",
            String::from_utf8_lossy(&syntax.stderr)
        );
        // Every input an expression names is declared.
        for line in step["env"].as_hash().into_iter().flatten() {
            let v = line.1.as_str().unwrap_or_default();
            if let Some(name) = v
                .strip_prefix("${{ inputs.")
                .and_then(|r| r.strip_suffix(" }}"))
            {
                assert!(
                    inputs.contains_key(&Yaml::String(name.into())),
                    "input {name}"
                );
            }
        }
        // Every option given to `ladr check` exists: on lines that run it (`ladr … check`)
        // or build its arguments (`args=(check …`, `args+=(--…`).
        for line in script.lines() {
            let runs = line.contains("ladr check") || line.contains("args=(check");
            if !(runs || line.contains("args+=(--")) {
                continue;
            }
            ladr_calls += usize::from(runs);
            for w in line.split(|c: char| c.is_whitespace() || "()\"".contains(c)) {
                if w.starts_with("--") {
                    assert!(
                        check_help.contains(w),
                        "`ladr check {w}` does not exist:\n{check_help}"
                    );
                }
            }
        }
        // Scripts of this repository it runs exist and are executable.
        for w in script.split_whitespace() {
            if let Some(rel) = w.trim_matches('"').strip_prefix("$src/") {
                let p = Path::new(ROOT).join(rel);
                let meta = std::fs::metadata(&p).unwrap_or_else(|_| panic!("{rel} is missing"));
                use std::os::unix::fs::PermissionsExt;
                assert!(
                    meta.permissions().mode() & 0o111 != 0,
                    "{rel} is not executable"
                );
            }
        }
    }
    assert!(
        ladr_calls >= 2,
        "the action runs ladr check (base and head)"
    );
    assert_eq!(
        uses,
        ["actions/cache@v4", "github/codeql-action/upload-sarif@v3"],
        "the README documents these"
    );
    // `cargo install --locked` needs the lock file.
    assert!(Path::new(ROOT).join("Cargo.lock").exists());
}

#[test]
fn the_example_workflow_uses_the_action() {
    let wf = load("contrib/github-action/example-workflow.yml");
    let steps = wf["jobs"]["ladr"]["steps"].as_vec().unwrap();
    let uses: Vec<&str> = steps.iter().filter_map(|s| s["uses"].as_str()).collect();
    assert!(
        uses.iter().any(|u| u.contains("/contrib/github-action@")),
        "{uses:?}"
    );
    assert_eq!(
        wf["permissions"]["security-events"].as_str(),
        Some("write"),
        "the SARIF upload needs it"
    );
}
