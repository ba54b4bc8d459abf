//! The GitHub Action of contrib/github-action: it parses as YAML, each shell step is valid
//! bash, every `ladr` option it passes exists in this ladr's `--help`, the scripts it runs
//! exist, and the actions it uses are the ones docs/gate.md documents; the README's fresh-Debian
//! commands are what `.ci/run` runs, and every link of the README and docs/ resolves.

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
        [
            "actions/cache@v4",
            "actions/cache@v4",
            "github/codeql-action/upload-sarif@v3"
        ],
        "docs/gate.md documents these"
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

/// The README's quick start keeps the two commands of a fresh Debian 12, and its test
/// command is the one `.ci/run` runs (with the same install scripts before it).
#[test]
fn the_readme_test_command_is_what_ci_runs() {
    let readme = std::fs::read_to_string(Path::new(ROOT).join("README.md")).unwrap();
    let ci = std::fs::read_to_string(Path::new(ROOT).join(".ci/run")).unwrap();
    let example = "    scripts/install-cbmc && cargo run --release -- examples/racy_counter.c";
    assert!(
        readme.lines().any(|l| l == example),
        "README lacks `{example}`"
    );
    let tests = "    scripts/install-cbmc && scripts/install-chromium && cargo test --release --no-fail-fast";
    assert!(readme.lines().any(|l| l == tests), "README lacks `{tests}`");
    let ci_lines: Vec<&str> = ci.lines().map(str::trim).collect();
    for step in tests.trim().split(" && ") {
        assert!(
            ci_lines.iter().any(|l| l.starts_with(step)),
            "`.ci/run` does not run `{step}`, which the README says it runs"
        );
    }
    assert!(
        readme.contains("cargo install --path ."),
        "no install-on-PATH step"
    );
    assert!(
        readme.lines().count() < 120,
        "the README is to stay a quick start"
    );
}

/// Every relative link of the README and of docs/*.md names a file that exists, and a
/// `#fragment` a heading of it (GitHub's anchors: lower case, punctuation dropped, spaces
/// to `-`).
#[test]
fn links_of_the_readme_and_docs_resolve() {
    let mut pages = vec![Path::new(ROOT).join("README.md")];
    for e in std::fs::read_dir(Path::new(ROOT).join("docs"))
        .unwrap()
        .flatten()
    {
        if e.path().extension().is_some_and(|x| x == "md") {
            pages.push(e.path());
        }
    }
    let anchors = |text: &str| -> Vec<String> {
        let mut fence = false;
        let mut out = vec![];
        for l in text.lines() {
            if l.starts_with("```") {
                fence = !fence;
            }
            if fence || !l.starts_with('#') {
                continue;
            }
            let title = l.trim_start_matches('#').trim().to_lowercase();
            let slug: String = title
                .chars()
                .filter(|c| c.is_alphanumeric() || *c == ' ' || *c == '-' || *c == '_')
                .map(|c| if c == ' ' { '-' } else { c })
                .collect();
            out.push(slug);
        }
        out
    };
    let mut checked = 0;
    for page in &pages {
        let text = std::fs::read_to_string(page).unwrap();
        for (i, _) in text.match_indices("](") {
            let rest = &text[i + 2..];
            let Some(end) = rest.find(')') else { continue };
            let target = &rest[..end];
            if target.starts_with("http") || target.contains(' ') || target.is_empty() {
                continue;
            }
            let (file, fragment) = target.split_once('#').unwrap_or((target, ""));
            let path = if file.is_empty() {
                page.clone()
            } else {
                page.parent().unwrap().join(file)
            };
            assert!(
                path.exists(),
                "{}: link to missing {target}",
                page.display()
            );
            if !fragment.is_empty() {
                let there = std::fs::read_to_string(&path).unwrap();
                assert!(
                    anchors(&there).iter().any(|a| a == fragment),
                    "{}: no heading for #{fragment} in {file}",
                    page.display()
                );
            }
            checked += 1;
        }
    }
    assert!(checked >= 10, "only {checked} links");
}
