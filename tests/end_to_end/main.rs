//! End-to-end: racy programs and their race-free twins (tests/e2e/*.c) checked with CBMC.
//! A racy program must be reported with the racing pair of lines, in the terminal report,
//! the JSON and the SARIF log; a race-free twin must get "no race". Each program is checked
//! once, through the library as `ladr` does (`checked`), and every format is rendered from
//! that outcome; a few runs of the `ladr` binary cover the command line (exit status,
//! formats on stdout, SV-COMP mode). Needs CBMC (scripts/install-cbmc); fails without it.

mod action;
mod c11_threads;
mod calls;
mod checked;
mod cli;
mod dataonly;
mod determinism;
mod gnu;
mod install;
mod library;
mod locks;
mod memory;
mod openmp;
mod programs;
mod project;
mod proof_shrink;
mod prove;
mod racefree;
mod real_bounds;
mod renamed;
mod report_formats;
mod resources;
mod security;
mod speed;

use checked::checked;
use std::path::Path;
use std::process::Command;

/// Runs the `ladr` binary in the package root (so reports name `tests/e2e/FILE`, as the
/// library-checked ones do): exit status, stdout, stderr.
/// The ladr binary on `args`, checking within the bounds (`--no-prove`: these tests are of
/// the bounded search; [`ladr_proving`] lets the static proof answer first).
fn ladr(args: &[&str]) -> (i32, String, String) {
    run_ladr(args, true)
}

/// The ladr binary on `args`, the static proof first as on the command line.
fn ladr_proving(args: &[&str]) -> (i32, String, String) {
    run_ladr(args, false)
}

fn run_ladr(args: &[&str], bounded: bool) -> (i32, String, String) {
    let subcommand = ["eval", "check", "init", "swarm"].contains(args.first().unwrap_or(&""));
    let out = Command::new(env!("CARGO_BIN_EXE_ladr"))
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .args(args)
        .args(fixed_bounds(args))
        .args((bounded && !subcommand).then_some("--no-prove"))
        .output()
        .expect("run ladr");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// These tests check at the bounds they give (by default 2 rounds, 2 unwindings), so the
/// races they expect are the first ones found there: `--no-deepen` unless a test deepens
/// (or runs SV-COMP mode or a subcommand).
fn fixed_bounds(args: &[&str]) -> Option<&'static str> {
    let subcommand = ["eval", "check", "init", "swarm"].contains(args.first().unwrap_or(&""));
    let deepens = args
        .iter()
        .any(|a| ["--deepen", "--svcomp", "--no-deepen"].contains(a));
    (!subcommand && !deepens).then_some("--no-deepen")
}

/// Asserts a race between the two given lines (in either order).
fn racy(file: &str, lines: (u32, u32)) {
    racy_one_of(file, &[lines]);
}

/// Asserts a race between one of the given pairs of lines (when several pairs of one
/// program race and CBMC may report any of them).
fn racy_one_of(file: &str, pairs: &[(u32, u32)]) {
    assert_racy(file, &checked(file), pairs);
}

/// Asserts that `chk`, the check of `file`, found a race between one of the given pairs of
/// lines, in every format.
fn assert_racy(file: &str, chk: &checked::Checked, pairs: &[(u32, u32)]) {
    let out = &chk.text;
    // Only the user's names: no ladr or CBMC internals, also among the steps.
    for internal in [
        "__ladr",
        "tmp_if_expr",
        "return_value",
        "$",
        "!0@",
        "__CPROVER",
    ] {
        assert!(
            !chk.steps_text.contains(internal) && !chk.json.contains(internal),
            "{file}: `{internal}` in the report:\n{}",
            chk.steps_text
        );
    }
    assert_eq!(
        chk.outcome.verdict, "race",
        "{file}: expected a race, got:\n{out}"
    );
    // The same pair in the JSON report.
    let json = &chk.json;
    let v = &chk.json_value;
    assert_eq!(v["verdict"], "race");
    let acc = v["races"][0]["accesses"].as_array().expect("two accesses");
    assert_eq!(acc.len(), 2);
    let mut got: Vec<u64> = acc.iter().map(|a| a["line"].as_u64().unwrap()).collect();
    got.sort();
    let lines = *pairs
        .iter()
        .find(|p| {
            let mut want = vec![p.0 as u64, p.1 as u64];
            want.sort();
            want == got
        })
        .unwrap_or_else(|| panic!("{file}: expected one of {pairs:?} in {json}"));
    // Both lines are labelled in the diagnostic's source excerpt.
    let a = format!("\n{:>w$} │", lines.0, w = gutter(out));
    let b = format!("\n{:>w$} │", lines.1, w = gutter(out));
    assert!(
        out.contains(&a) && out.contains(&b) && out.contains("error[data-race]"),
        "{file}: expected lines {lines:?} in:\n{out}"
    );
    for a in acc {
        assert!(a["column"].as_u64().unwrap() >= 1);
        assert!(["read", "write"].contains(&a["kind"].as_str().unwrap()));
        assert!(!a["expr"].as_str().unwrap().is_empty());
    }
    // At least one of the two accesses is a write, and they are by different threads.
    assert!(acc.iter().any(|a| a["kind"] == "write"), "{json}");
    assert_ne!(acc[0]["thread"]["slot"], acc[1]["thread"]["slot"], "{json}");
    // The interleaving ends with the two racing threads.
    let il = v["races"][0]["interleaving"].as_array().unwrap();
    assert!(il.len() >= 2, "{json}");
    // Round-robin order: rounds never go back, and within a round slots only go up.
    for w in il.windows(2) {
        let key = |c: &serde_json::Value| {
            (
                c["round"].as_u64().unwrap(),
                c["thread"]["slot"].as_u64().unwrap(),
            )
        };
        assert!(
            key(&w[0]) < key(&w[1]),
            "{file}: contexts out of order in {json}"
        );
    }
    assert_eq!(il[il.len() - 1]["thread"], acc[1]["thread"], "{json}");
    // Every line shown is one of the file's (none of ladr's model leaks in).
    let src = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/e2e")
            .join(file),
    )
    .expect("read the program");
    let last = src.lines().count() as u64;
    for c in il {
        for l in c["lines"].as_array().unwrap() {
            let n = l["line"].as_u64().unwrap();
            assert!((1..=last).contains(&n), "{file}: line {n} in {json}");
        }
    }
    // And in SARIF: the second access is the result's location, the first its related one.
    let s = &chk.sarif;
    report_formats::check_sarif(s);
    let sarif = serde_json::to_string_pretty(s).unwrap();
    assert_eq!(s["version"], "2.1.0");
    let result = &s["runs"][0]["results"][0];
    assert_eq!(result["ruleId"], "data-race", "{sarif}");
    let region = |l: &serde_json::Value| {
        (
            l["physicalLocation"]["region"]["startLine"]
                .as_u64()
                .unwrap(),
            l["physicalLocation"]["region"]["startColumn"]
                .as_u64()
                .unwrap(),
        )
    };
    let at = |a: &serde_json::Value| (a["line"].as_u64().unwrap(), a["column"].as_u64().unwrap());
    assert_eq!(region(&result["locations"][0]), at(&acc[1]), "{sarif}");
    assert_eq!(
        region(&result["relatedLocations"][0]),
        at(&acc[0]),
        "{sarif}"
    );
    let uri = result["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
        .as_str()
        .unwrap();
    assert!(uri.ends_with(file) && !uri.starts_with('/'), "{uri}");
}

/// The lines of a JSON race's two accesses, in order.
fn race_lines(race: &serde_json::Value) -> Vec<u64> {
    let mut l: Vec<u64> = race["accesses"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a["line"].as_u64().unwrap())
        .collect();
    l.sort();
    l
}

/// The line pairs of every race of a JSON document, in the document's order.
fn races_lines(doc: &serde_json::Value) -> Vec<Vec<u64>> {
    doc["races"]
        .as_array()
        .unwrap()
        .iter()
        .map(race_lines)
        .collect()
}

/// Width of the line-number gutter of a codespan diagnostic (the `┌─` line's indent).
fn gutter(out: &str) -> usize {
    out.lines()
        .find_map(|l| l.find("┌─"))
        .map(|i| i.saturating_sub(1))
        .unwrap_or(1)
}

fn free(file: &str) {
    let c = checked(file);
    let out = &c.text;
    assert_eq!(
        c.outcome.verdict, "no-race",
        "{file}: expected no race, got:\n{out}"
    );
    assert!(out.contains("no race found"), "{out}");
    let v = &c.json_value;
    assert_eq!(v["verdict"], "no-race", "{}", c.json);
    assert_eq!(v["races"], serde_json::json!([]), "{}", c.json);
    // A race-free twin's threads run within the bounds: its "no race" checked them.
    assert_eq!(v["bounds"]["vacuous"], false, "{}", c.json);
    assert!(!out.contains("vacuous"), "{out}");
    let run = report_formats::check_sarif(&c.sarif);
    assert_eq!(run["results"].as_array().unwrap().len(), 0);
    assert_eq!(run["invocations"][0]["executionSuccessful"], true);
}

/// The terminal report without colour, for snapshots; `ladr FILE --color never` prints the
/// same report as the library renders.
#[test]
fn terminal_report_snapshot() {
    let c = checked("condvar_racy.c");
    let (code, out, err) = ladr(&["tests/e2e/condvar_racy.c", "--color", "never"]);
    assert_eq!(code, 1, "{out}{err}");
    assert_eq!(err, "");
    assert_eq!(out, c.text);
    insta::assert_snapshot!(out);
    insta::assert_snapshot!("global_racy", checked("global_racy.c").text);
    insta::assert_snapshot!("condvar_racy_steps", c.steps_text);
    insta::assert_snapshot!("heap_arg_racy_steps", checked("heap_arg_racy.c").steps_text);
}

#[test]
fn svcomp_mode_ends_with_the_result_line() {
    let dir = tempfile::tempdir().unwrap();
    let prp = dir.path().join("no-data-race.prp");
    std::fs::write(&prp, "CHECK( init(main()), LTL(G ! data-race) )\n").unwrap();
    let prp = prp.to_str().unwrap();
    let w = dir.path().join("w.graphml");
    let (code, out, err) = ladr(&[
        "tests/e2e/global_racy.c",
        "--svcomp",
        "--property-file",
        prp,
        "--witness",
        w.to_str().unwrap(),
    ]);
    assert_eq!(code, 1, "{out}{err}");
    let xml = std::fs::read_to_string(&w).expect("witness written");
    assert!(
        xml.contains("violation_witness") && xml.contains("<data key=\"violation\">true</data>"),
        "{xml}"
    );
    assert_eq!(
        out.trim_end().lines().last(),
        Some("SV-COMP result: false(no-data-race)")
    );
    let (code, out, err) = ladr(&["tests/e2e/mutex_free.c", "--svcomp", "--property-file", prp]);
    assert_eq!(code, 0, "{out}{err}");
    assert_eq!(out.trim_end().lines().last(), Some("SV-COMP result: true"));
    let other = dir.path().join("unreach-call.prp");
    std::fs::write(
        &other,
        "CHECK( init(main()), LTL(G ! call(reach_error())) )\n",
    )
    .unwrap();
    let (code, out, err) = ladr(&[
        "tests/e2e/mutex_free.c",
        "--svcomp",
        "--property-file",
        other.to_str().unwrap(),
    ]);
    assert_eq!(code, 2, "{out}{err}");
    assert!(err.contains("not the no-data-race property"), "{err}");
    assert_eq!(
        out.trim_end().lines().last(),
        Some("SV-COMP result: unknown")
    );
}

/// A loop in `main` before the threads start that needs more unwindings than the deepening
/// schedule reaches (a key of 25 characters lowercased, issue 33's openwsman iniparser
/// harness): every bound pair of the schedule was vacuous, and the deepening past it grew
/// rounds and unwinding in turn, so within the time limit the answer was a vacuous "no race"
/// for the racy program. Now the vacuity query finds the least unwinding at which `main`
/// creates the threads before the schedule starts (doubling, then bisection): the race is
/// found at 2/25 and the race-free twin's "no race" is not vacuous.
#[test]
fn a_long_loop_before_the_threads_moves_the_schedule_past_vacuity() {
    for (file, code) in [("vacuous_key_racy.c", 1), ("vacuous_key_free.c", 0)] {
        let path = format!("tests/e2e/{file}");
        let args = [&path, "--deepen", "--jobs", "1", "--timeout", "60"];
        let (status, out, err) = ladr(&[&args[..], &["--format", "json"]].concat());
        assert_eq!(status, code, "{file}: {out}{err}");
        let v: serde_json::Value = serde_json::from_str(&out).expect("JSON on stdout");
        assert_eq!(v["bounds"]["vacuous"], false, "{file}: {out}");
        assert!(
            v["bounds"]["unwind"].as_u64().unwrap() >= 25,
            "{file}: {out}"
        );
        if code == 1 {
            let acc = v["races"][0]["accesses"].as_array().expect("a race");
            assert!(
                acc.iter().all(|a| a["line"] == 5 || a["line"] == 6),
                "{out}"
            );
        } else {
            assert_eq!(v["verdict"], "no-race", "{out}");
        }
    }
}

/// A "no race" is vacuous when the program creates threads but no execution within the
/// bounds creates one (issue 16): in both programs a loop of 4 iterations (its bound a global that
/// `main` writes, so not a constant) comes before `pthread_create`, and 2 unwindings cut
/// it, so at 2/2 no access of a thread is checked: no answer (`unknown`, exit 3; it was a
/// "no race" that a race gate passed). The text, the JSON (`bounds.vacuous`) and the SARIF
/// note say why. Deepening grows the bounds on until the threads run: the
/// race appears at 3/4, and the race-free twin, whose `main` then spins in `while (1)`
/// (an execution that never ends is no vacuity), gets a "no race" that is not vacuous.
/// SV-COMP mode answers `unknown` for a vacuous "no race", never `true`.
#[test]
fn vacuous_no_race_says_so_and_deepening_goes_on() {
    // The third: a pointer's integer value compared with a constant (issue 27).
    for file in ["vacuous_racy.c", "vacuous_free.c", "vacuous_pointer_racy.c"] {
        let c = checked(file);
        assert_eq!(c.outcome.verdict, "unknown", "{file}: {}", c.text);
        assert!(
            c.text.contains(
                "unknown: vacuous: no execution within 2 rounds and 2 unwindings creates a \
                 thread, so no access of a thread was checked"
            ),
            "{file}: {}",
            c.text
        );
        assert_eq!(c.json_value["bounds"]["vacuous"], true, "{}", c.json);
        let run = report_formats::check_sarif(&c.sarif);
        let note = &run["invocations"][0]["toolExecutionNotifications"][0];
        // No answer: the run did not succeed, as for every unknown.
        assert_eq!(note["level"], "error", "{run}");
        assert_eq!(run["invocations"][0]["executionSuccessful"], false, "{run}");
        assert!(
            note["message"]["text"]
                .as_str()
                .unwrap()
                .contains("vacuous: no execution within 2 rounds and 2 unwindings creates"),
            "{run}"
        );
        assert_eq!(run["properties"]["bounds"]["vacuous"], true, "{run}");
    }
    let (code, out, err) = ladr(&[
        "tests/e2e/vacuous_racy.c",
        "--deepen",
        "--jobs",
        "1",
        "--format",
        "json",
    ]);
    assert_eq!(code, 1, "{out}{err}");
    let v: serde_json::Value = serde_json::from_str(&out).expect("JSON on stdout");
    let acc = v["races"][0]["accesses"].as_array().expect("a race");
    assert!(acc.iter().all(|a| a["line"] == 4), "{out}");
    assert!(v["bounds"]["unwind"].as_u64().unwrap() >= 4, "{out}");
    let (code, out, err) = ladr(&[
        "tests/e2e/vacuous_free.c",
        "--deepen",
        "--deepen-steps",
        "4",
        "--jobs",
        "1",
        "--format",
        "json",
    ]);
    assert_eq!(code, 0, "{out}{err}");
    let v: serde_json::Value = serde_json::from_str(&out).expect("JSON on stdout");
    assert_eq!(v["verdict"], "no-race", "{out}");
    assert_eq!(v["bounds"]["vacuous"], false, "{out}");
    assert_eq!(v["bounds"]["unwind"], 4, "{out}");

    let dir = tempfile::tempdir().unwrap();
    let prp = dir.path().join("no-data-race.prp");
    std::fs::write(&prp, "CHECK( init(main()), LTL(G ! data-race) )\n").unwrap();
    let prp = prp.to_str().unwrap();
    let svcomp = |steps: &str| {
        let (code, out, err) = ladr(&[
            "tests/e2e/vacuous_free.c",
            "--svcomp",
            "--property-file",
            prp,
            "--deepen-steps",
            steps,
        ]);
        (code, out.trim_end().lines().last().map(str::to_string), err)
    };
    let (code, last, err) = svcomp("0");
    assert_eq!(last.as_deref(), Some("SV-COMP result: unknown"), "{err}");
    assert_eq!(code, 3);
    let (code, last, err) = svcomp("4");
    assert_eq!(last.as_deref(), Some("SV-COMP result: true"), "{err}");
    assert_eq!(code, 0);
    let (_, help, _) = ladr(&["--help"]);
    assert!(help.contains("vacuous"), "{help}");
}
