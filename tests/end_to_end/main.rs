//! End-to-end: racy programs and their race-free twins (tests/e2e/*.c) checked with CBMC.
//! A racy program must be reported with the racing pair of lines, in the terminal report,
//! the JSON and the SARIF log; a race-free twin must get "no race". Each program is checked
//! once, through the library as `ladr` does (`checked`), and every format is rendered from
//! that outcome; a few runs of the `ladr` binary cover the command line (exit status,
//! formats on stdout, SV-COMP mode). Needs CBMC (scripts/install-cbmc); fails without it.

mod action;
mod checked;
mod cli;
mod locks;
mod project;
mod renamed;
mod report_formats;
mod resources;
mod security;
mod speed;

use checked::{checked, checked_all};
use std::path::Path;
use std::process::Command;

/// Runs the `ladr` binary in the package root (so reports name `tests/e2e/FILE`, as the
/// library-checked ones do): exit status, stdout, stderr.
fn ladr(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_ladr"))
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .args(args)
        .args(fixed_bounds(args))
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

/// A "no race" is vacuous when the program creates threads but no execution within the
/// bounds creates one (issue 16): in both programs a loop of 4 iterations (its bound a global that
/// `main` writes, so not a constant) comes before `pthread_create`, and 2 unwindings cut
/// it, so at 2/2 no access of a thread is checked. The text, the JSON (`bounds.vacuous`)
/// and the SARIF note say so. Deepening grows the bounds on until the threads run: the
/// race appears at 3/4, and the race-free twin, whose `main` then spins in `while (1)`
/// (an execution that never ends is no vacuity), gets a "no race" that is not vacuous.
/// SV-COMP mode answers `unknown` for a vacuous "no race", never `true`.
#[test]
fn vacuous_no_race_says_so_and_deepening_goes_on() {
    // The third: a pointer's integer value compared with a constant (issue 27).
    for file in ["vacuous_racy.c", "vacuous_free.c", "vacuous_pointer_racy.c"] {
        let c = checked(file);
        assert_eq!(c.outcome.verdict, "no-race", "{file}: {}", c.text);
        assert!(
            c.text
                .contains("; vacuous: no execution within these bounds creates a thread"),
            "{file}: {}",
            c.text
        );
        assert_eq!(c.json_value["bounds"]["vacuous"], true, "{}", c.json);
        let run = report_formats::check_sarif(&c.sarif);
        let note = &run["invocations"][0]["toolExecutionNotifications"][0];
        assert_eq!(note["level"], "note", "{run}");
        assert!(
            note["message"]["text"]
                .as_str()
                .unwrap()
                .contains("vacuous: no execution within these bounds creates a thread"),
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

#[test]
fn global_write_read() {
    racy("global_racy.c", (3, 4));
    free("global_joined_free.c");
}

#[test]
fn mutex() {
    racy("mutex_racy.c", (6, 10));
    free("mutex_free.c");
}

#[test]
fn array_elements() {
    racy("array_elements_racy.c", (3, 4));
    free("array_elements_free.c");
}

#[test]
fn struct_fields() {
    racy("struct_fields_racy.c", (4, 5));
    free("struct_fields_free.c");
}

#[test]
fn heap_object_via_thread_argument_same_routine_twice() {
    racy("heap_arg_racy.c", (4, 4));
    free("heap_arg_free.c");
}

#[test]
fn heap_object_of_nondeterministic_size() {
    racy("heap_nondet_size_racy.c", (5, 6));
    free("heap_nondet_size_free.c");
}

/// An allocation whose size an inlined helper computes from its parameters (`size = priv +
/// sizeof(struct dev)`, a driver's private data after its struct): a constant, though no
/// literal. It was once taken for a size of its own (a `heap-size` cut of 128 bytes), which
/// cut every execution in which the allocation succeeds: "no race", vacuous.
#[test]
fn allocation_size_computed_from_constants() {
    racy("alloc_size_chain_racy.c", (5, 13));
    free("alloc_size_chain_free.c");
    for file in ["alloc_size_chain_racy.c", "alloc_size_chain_free.c"] {
        let c = checked(file);
        assert_eq!(
            c.json_value["bounds"]["cuts"],
            serde_json::json!([]),
            "{file}"
        );
    }
}

/// Issue 27 item 12: a "no race" whose bounds cut loops names them (`file:line`, in the
/// text and in JSON's `bounds.cut_loops`) and says what covers more iterations.
#[test]
fn a_no_race_names_the_loops_its_bounds_cut() {
    let c = checked("vacuous_racy.c");
    assert_eq!(c.outcome.verdict, "no-race", "{}", c.text);
    assert_eq!(
        c.json_value["bounds"]["cut_loops"],
        serde_json::json!([{"file": "tests/e2e/vacuous_racy.c", "line": 7, "column": 3}]),
        "{}",
        c.json
    );
    assert!(
        c.text.contains(
            "loop cut at 2 unwindings: tests/e2e/vacuous_racy.c:7; a larger --unwind U (or \
             --deepen)"
        ),
        "{}",
        c.text
    );
    // Nothing cut, nothing named.
    let c = checked("fn_pointer_task_free.c");
    assert!(
        c.json_value["bounds"].get("cut_loops").is_none(),
        "{}",
        c.json
    );
    assert!(!c.text.contains("loop cut at"), "{}", c.text);
}

#[test]
fn main_arguments_are_inputs() {
    racy("argv_racy.c", (3, 3));
    free("argv_free.c");
}

#[test]
fn loop_filling_a_large_heap_object_with_arbitrary_bytes() {
    // The fill loop runs 804 times: it becomes one step instead of cutting every run.
    racy("fill_loop_racy.c", (12, 13));
    free("fill_loop_free.c");
}

#[test]
fn local_whose_address_escapes() {
    racy("escaped_local_racy.c", (2, 7));
    free("escaped_local_free.c");
}

#[test]
fn threads_created_in_a_loop() {
    racy("loop_create_racy.c", (3, 3));
    free("loop_create_free.c");
}

#[test]
fn condition_variable() {
    racy("condvar_racy.c", (11, 19));
    free("condvar_free.c");
}

#[test]
fn atomic_sections() {
    racy("atomic_section_racy.c", (7, 12));
    free("atomic_section_free.c");
}

#[test]
fn atomic_functions() {
    racy("atomic_racy.c", (3, 5));
    free("atomic_free.c");
}

/// More addressed objects than CBMC numbers by default: CBMC runs again with more bits.
#[test]
fn more_objects_than_cbmc_numbers_by_default() {
    racy("many_objects_racy.c", (12, 16));
    free("many_objects_free.c");
}

/// The store of an atomic function's result is outside its section.
#[test]
fn atomic_function_results() {
    racy("verifier_atomic_result_racy.c", (5, 5));
    free("verifier_atomic_result_free.c");
}

/// User-defined C11 `atomic_*` operations are atomic, also around a section of their own.
#[test]
fn c11_atomic_functions() {
    racy("c11_atomic_racy.c", (18, 18));
    free("c11_atomic_free.c");
}

/// Every access of an `_Atomic` object is atomic (`hits++`, `(*p)++` through an
/// `atomic_int *`, gcc's `<stdatomic.h>` macros with `__auto_type`); a plain access of one
/// (through an `int *`) still races with an atomic one, which is shown as the object.
#[test]
fn c11_atomic_objects() {
    racy("stdatomic_racy.c", (5, 11));
    let c = checked("stdatomic_racy.c");
    let exprs: Vec<&str> = c.json_value["races"][0]["accesses"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a["expr"].as_str().unwrap())
        .collect();
    assert!(exprs.contains(&"counter"), "{}", c.json);
    let atomic = c.json_value["races"][0]["accesses"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|a| a["atomic"] == true)
        .count();
    assert_eq!(atomic, 1, "{}", c.json);
    free("stdatomic_free.c");
}

/// `__atomic_*` builtins through a pointer variable (not `&x`) are atomic accesses of what
/// it points to.
#[test]
fn atomic_builtins_through_pointers() {
    racy("atomic_pointer_racy.c", (5, 9));
    free("atomic_pointer_free.c");
}

/// Every thread has its own errno (glibc's `(*__errno_location ())`), and reads back what
/// it set.
#[test]
fn errno_is_per_thread() {
    racy("errno_racy.c", (10, 10));
    free("errno_free.c");
}

/// Asserts that the answer `c` states exactly the assumption `want`, in JSON, in the text
/// report and in SARIF.
fn assert_assumptions(c: &checked::Checked, want: &str) {
    assert_eq!(
        c.json_value["assumptions"],
        serde_json::json!([want]),
        "{}",
        c.json
    );
    assert!(c.text.contains(want), "{}", c.text);
    assert_eq!(
        c.sarif["runs"][0]["properties"]["assumptions"],
        serde_json::json!([want])
    );
}

/// `ffs` computes its result (CBMC has no model of it; `abs` is CBMC's own); a function
/// without a body whose result is used is an assumption of the verdict, in every format.
#[test]
fn library_results_and_assumptions() {
    racy("ffs_racy.c", (11, 11));
    free("ffs_free.c");
    assert_assumptions(
        &checked("ffs_free.c"),
        "the result of `measure` (no body) is any value of its type",
    );
    // No assumption where every result is computed.
    assert!(checked("ffs_racy.c")
        .json_value
        .get("assumptions")
        .is_none());
}

/// A pointer made from an integer (a device register) names no object CBMC's shadow memory
/// can flag: its race is missed, and the "no race" says that such accesses may not have
/// been checked, in every format. Programs whose pointers all have known targets (every
/// other e2e program) state no such thing.
#[test]
fn unbounded_pointers_are_an_assumption_of_no_race() {
    let c = checked("mmio_unchecked.c");
    assert_eq!(c.json_value["verdict"], "no-race", "{}", c.json);
    assert_assumptions(
        &c,
        "accesses through 1 pointer whose target CBMC could not bound (read from memory \
         never written, or made from an integer) may not have been checked for races",
    );
    for bounded in ["global_joined_free.c", "library_free.c"] {
        assert!(
            checked(bounded).json_value.get("assumptions").is_none(),
            "{bounded}"
        );
    }
}

#[test]
fn race_after_two_loop_iterations() {
    racy("loop_twice_racy.c", (9, 13));
    // The command line with smaller bounds: exit status 0 and the text report on stdout.
    let (code, out, err) = ladr(&["tests/e2e/loop_twice_racy.c", "--unwind", "1"]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("the bounds cut the program: loop"), "{out}");
}

#[test]
fn race_that_needs_two_rounds() {
    racy("two_rounds_racy.c", (8, 19));
    // The command line with one round, in JSON on stdout.
    let (code, out, err) = ladr(&[
        "tests/e2e/two_rounds_racy.c",
        "--rounds",
        "1",
        "--format",
        "json",
    ]);
    assert_eq!(code, 0, "{out}{err}");
    let v: serde_json::Value = serde_json::from_str(&out).expect("JSON on stdout");
    assert_eq!(v["verdict"], "no-race", "{out}");
    assert_eq!(v["bounds"]["rounds"], 1, "{out}");
    assert_eq!(v["races"], serde_json::json!([]), "{out}");
}

#[test]
fn read_read_is_no_race() {
    free("read_read_free.c");
}

#[test]
fn char_write_into_int() {
    racy("char_into_int_racy.c", (3, 4));
    free("char_into_int_free.c");
}

#[test]
fn library_calls_write_through_pointers() {
    racy("library_racy.c", (4, 5));
    free("library_free.c");
}

#[test]
fn sequential_output_is_valid_c() {
    for f in std::fs::read_dir(Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/e2e")).unwrap() {
        let f = f.unwrap().path();
        let out = Command::new(env!("CARGO_BIN_EXE_ladr"))
            .arg(&f)
            .args(["--emit", "seq", "--no-deepen"])
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let dir = tempfile::tempdir().unwrap();
        let seq = dir.path().join("seq.c");
        std::fs::write(&seq, &out.stdout).unwrap();
        let gcc = Command::new("gcc")
            .args(["-fsyntax-only", "-w", "-x", "c"])
            .arg(&seq)
            .output()
            .unwrap();
        assert!(
            gcc.status.success(),
            "{}: {}",
            f.display(),
            String::from_utf8_lossy(&gcc.stderr)
        );
    }
}

#[test]
fn static_local_is_one_object() {
    racy("static_local_racy.c", (4, 4));
    free("static_local_mutex_free.c");
    // A static local of a function inlined into two different start routines.
    racy_one_of("static_local_helper_racy.c", &[(4, 4), (4, 5)]);
}

#[test]
fn thread_local_has_one_instance_per_thread() {
    free("thread_local_free.c");
    racy("thread_local_twin_racy.c", (3, 3));
    // Another thread may still reach a thread's instance through a pointer.
    racy("thread_local_escape_racy.c", (9, 17));
}

#[test]
fn thread_specific_data_per_thread() {
    free("keys_free.c");
    racy("keys_shared_racy.c", (8, 8));
}

#[test]
fn main_return_value_is_read() {
    racy("main_return_racy.c", (3, 7));
}

#[test]
fn join_stores_the_exit_value_in_the_joining_thread() {
    racy("join_store_racy.c", (4, 9));
    free("join_store_free.c");
}

/// A task run through a function pointer by a start routine: a start routine only named in
/// `pthread_create` is no candidate of the pointer (issue 17), so nothing is cut; one whose
/// address the program also stores is, and is not followed into itself, a cut named for what
/// it is (`function-pointer`), not `recursion` in a program without recursion.
#[test]
fn function_pointer_to_a_task() {
    racy("fn_pointer_task_racy.c", (4, 4));
    free("fn_pointer_task_free.c");
    let c = checked("fn_pointer_task_free.c");
    assert_eq!(c.json_value["bounds"]["cuts"], serde_json::json!([]));
    assert!(
        c.text
            .contains("no loop, recursion or thread creation was cut"),
        "{}",
        c.text
    );
    let c = checked("fn_pointer_stored_task_free.c");
    assert_eq!(c.outcome.verdict, "no-race", "{}", c.text);
    assert_eq!(
        c.json_value["bounds"]["cuts"],
        serde_json::json!(["function-pointer"])
    );
    // A function returning a value that the program casts to the pointer's type (a
    // `void` job) stays a target: its race is found.
    racy("fn_pointer_cast_racy.c", (4, 4));
}

/// `pthread_once`: a second caller waits until the first has run the init routine (the
/// write in `init` and the read after `pthread_once` never race), while a reader that does
/// not call `pthread_once` races with the init routine.
#[test]
fn pthread_once_waits_for_the_init_routine() {
    racy("once_racy.c", (4, 6));
    free("once_free.c");
}

/// A recursive mutex (static initializer, or `pthread_mutexattr_settype`) may be relocked by
/// its owner: the rest of the thread is reachable, so its race after unlocking is found.
#[test]
fn recursive_mutexes_can_be_relocked() {
    racy("recursive_mutex_racy.c", (10, 15));
    free("recursive_mutex_free.c");
}

/// String functions on a thread's argument (`strlen`, `strcmp`, `snprintf`, `fprintf` with
/// string literals): CBMC's own models loop until the terminator and never ended on a
/// pointer to one of several strings; the model's bounded ones (`model/string.c`) answer in
/// seconds (issue 16).
#[test]
fn string_functions_on_a_thread_argument() {
    racy("string_calls_racy.c", (12, 12));
    free("string_calls_free.c");
}

/// Invalid C that ladr used to write (issue 16, item 2): a local array of pointers with a
/// non-constant initialiser (an array assignment), a parameter of an array typedef (copied
/// as an array), a typedef local to a thread (left behind when its locals moved out).
#[test]
fn declarations_ladr_used_to_write_as_invalid_c() {
    racy("pointer_array_init_racy.c", (5, 12));
    free("pointer_array_init_free.c");
    racy("array_typedef_param_racy.c", (4, 13));
    free("array_typedef_param_free.c");
    racy("local_typedef_racy.c", (7, 7));
    free("local_typedef_free.c");
}

/// A `goto` into a loop body from outside it is a located "unsupported" error (exit status
/// 2), never a program CBMC rejects.
#[test]
fn goto_into_a_loop_body_is_unsupported() {
    let (code, out, err) = ladr(&["tests/data/unsupported/goto_into_loop.c"]);
    assert_eq!(code, 2, "{out}{err}");
    let text = format!("{out}{err}");
    assert!(text.contains("goto inside"), "{text}");
    assert!(text.contains("goto_into_loop.c:5:12"), "{text}");
}

/// A start routine passed to `pthread_create` through a parameter of a helper
/// (`spawn(worker, arg)`): known once the helper is inlined, no longer refused.
#[test]
fn start_routine_through_a_helper_parameter() {
    racy("spawn_wrapper_racy.c", (8, 11));
    free("spawn_wrapper_free.c");
}

/// Two independent races (on `x`: lines 5 and 10; on `y`: lines 6 and 14): `ladr FILE`
/// reports one, `--all` both, each with its own interleaving, in text, JSON and SARIF; the
/// twin with a mutex has none.
#[test]
fn every_race_is_reported_once() {
    let pairs = [(5, 10), (6, 14)];
    racy_one_of("two_races_racy.c", &pairs);
    let one = checked("two_races_racy.c");
    assert_eq!(one.outcome.races.len(), 1);
    assert_eq!(one.json_value["races"].as_array().unwrap().len(), 1);
    assert_eq!(one.json_value["search"]["ended"], "max-races");
    assert!(!one.text.contains("race 1 of"), "{}", one.text);
    let all = checked_all("two_races_racy.c");
    let json = &all.json;
    assert_eq!(all.outcome.verdict, "race");
    assert_eq!(all.json_value["search"]["ended"], "all-found", "{json}");
    let races = all.json_value["races"].as_array().unwrap();
    let mut got: Vec<(u32, u32)> = races
        .iter()
        .map(|r| {
            let acc = r["accesses"].as_array().unwrap();
            let (a, b) = (
                acc[0]["line"].as_u64().unwrap(),
                acc[1]["line"].as_u64().unwrap(),
            );
            assert_ne!(acc[0]["thread"]["slot"], acc[1]["thread"]["slot"], "{json}");
            // Each race's interleaving ends with its second access's thread.
            let il = r["interleaving"].as_array().unwrap();
            assert_eq!(il[il.len() - 1]["thread"], acc[1]["thread"], "{json}");
            (a.min(b) as u32, a.max(b) as u32)
        })
        .collect();
    got.sort();
    assert_eq!(got, pairs, "{json}");
    // Text: one diagnostic per race, numbered, both lines of each labelled.
    let out = &all.text;
    for (i, (a, b)) in pairs.iter().enumerate() {
        assert!(out.contains(&format!("(race {} of 2)", i + 1)), "{out}");
        for l in [a, b] {
            let label = format!("\n{:>w$} │", l, w = gutter(out));
            assert!(out.contains(&label), "line {l} not shown:\n{out}");
        }
    }
    assert_eq!(out.matches("error[data-race]").count(), 2, "{out}");
    assert_eq!(out.matches("interleaving:").count(), 2, "{out}");
    assert!(out.contains("2 races found: no other race within"), "{out}");
    // SARIF: one result per race, its second access the location, its own flow and
    // fingerprint.
    let run = report_formats::check_sarif(&all.sarif);
    let results = run["results"].as_array().unwrap();
    assert_eq!(results.len(), 2);
    let line = |l: &serde_json::Value| l["physicalLocation"]["region"]["startLine"].clone();
    for (r, race) in results.iter().zip(races) {
        assert_eq!(line(&r["locations"][0]), race["accesses"][1]["line"]);
        assert_eq!(line(&r["relatedLocations"][0]), race["accesses"][0]["line"]);
        assert_eq!(r["codeFlows"].as_array().unwrap().len(), 1);
    }
    let fp = |r: &serde_json::Value| r["partialFingerprints"]["ladrRace/v1"].clone();
    assert_ne!(fp(&results[0]), fp(&results[1]));
    free("two_races_free.c");
    let none = checked_all("two_races_free.c");
    assert_eq!(none.outcome.verdict, "no-race");
    assert_eq!(none.json_value["search"]["ended"], "all-found");
}

/// `free` and `realloc` write the whole block (issue 16): a read of any part of a block
/// another thread frees races with the free (here a later field, not the first byte);
/// after a join it does not. `realloc` reads and frees the old block.
#[test]
fn free_and_realloc_write_the_block() {
    racy("free_racy.c", (5, 11));
    free("free_free.c");
    racy("realloc_racy.c", (4, 9));
}

/// A helper in which no context switch can happen stays a C function called from the
/// slots (issue 17): the accesses right next to its calls (its argument, its result's
/// store) still race, and a mutex around them still orders them.
#[test]
fn kept_helper_call_next_to_racing_accesses() {
    racy("kept_helper_racy.c", (7, 13));
    free("kept_helper_free.c");
}

/// An extended `asm` statement accesses its operands (issue 16): outputs are written,
/// inputs read, so two threads' `asm` on one variable race unless a mutex orders them.
#[test]
fn asm_operands_are_accesses() {
    racy("asm_racy.c", (5, 10));
    free("asm_free.c");
}

/// A pointer member of a struct in an array (`names[i].str`) has its own race flags: CBMC
/// 6.6's shadow memory matched its address with no object, so a write of it raced with
/// nothing (CBMC even failed an invariant), and a read of a constant table of such structs
/// in a logger's header (with `localtime_r`'s `struct tm`) found a flag no access had set
/// ("unknown access sites"). Written under the readers' mutex, the member races with no
/// read.
#[test]
fn pointer_members_of_array_elements_have_flags() {
    racy("table_pointer_racy.c", (13, 18));
    free("table_pointer_free.c");
    free("log_header_free.c");
}

/// Pipes and socket pairs are blocking byte channels (issue 16): a value written before
/// `write` and read after the matching `read` in another thread is no race (nor, with a
/// socket pair, one read after the other end closed it and `read` returned 0); written
/// after the `write`, it races.
#[test]
fn pipes_and_socket_pairs_order_threads() {
    free("pipe_free.c");
    racy("pipe_racy.c", (8, 16));
    free("socketpair_free.c");
}

/// A variadic function that reads its variable arguments (issue 16) is inlined with the
/// call's extra arguments in fresh locals, which its `va_arg`s read in order: a logger's
/// read of its global level races with an unlocked write of it, and is no race under the
/// logger's mutex. The race-free twin writes the level, unlocked, only when `va_arg`
/// returns more than 2, which the arguments (1 and 2) never are, so an arbitrary `va_arg`
/// would make it racy.
#[test]
fn variadic_functions_read_their_arguments() {
    racy("variadic_log_racy.c", (9, 23));
    free("variadic_log_free.c");
}

/// Arguments passed through `...` get the default argument promotions (issue 16): a
/// `float` is read back with `va_arg(ap, double)` and a `char` with `va_arg(ap, int)`. The
/// racy program writes `x` only when both values arrive (it raced with `main`'s write only
/// if they do), the race-free twin only when one does not.
#[test]
fn variadic_arguments_are_promoted() {
    racy("variadic_promote_racy.c", (10, 22));
    free("variadic_promote_free.c");
}

/// Key destructors run at a thread's exit (issue 16): for each key with a non-NULL value,
/// which is set to NULL first. The destructor's write races with `main`'s read before the
/// join, not after it; and a thread that set no value runs no destructor, so the read while
/// it runs is no race (also with the three rounds the join, the second creation and the
/// read need).
#[test]
fn key_destructors_run_at_thread_exit() {
    racy("key_destructor_racy.c", (6, 17));
    free("key_destructor_free.c");
    let (code, out, err) = ladr(&[
        "tests/e2e/key_destructor_free.c",
        "--rounds",
        "3",
        "--format",
        "json",
    ]);
    assert_eq!(code, 0, "{out}{err}");
    let v: serde_json::Value = serde_json::from_str(&out).expect("JSON on stdout");
    assert_eq!(v["verdict"], "no-race", "{out}");
    assert_eq!(v["bounds"]["rounds"], 3, "{out}");
}

/// When `main` calls `pthread_exit`, the main thread exits and its key destructors run
/// (issue 16), while the other threads go on: the destructor's write races with a read by
/// the thread `main` created, and not when both hold the mutex.
#[test]
fn key_destructors_run_after_main_exits() {
    racy("main_exit_destructor_racy.c", (5, 8));
    free("main_exit_destructor_free.c");
}

/// `--malloc-may-fail` (issue 16): `malloc` may return NULL, so a race on the path that
/// handles the failure is found with the option and not without it.
#[test]
fn malloc_may_fail_explores_failed_allocations() {
    free("malloc_fails_racy.c");
    let opts = ladr_ir::program::Options {
        malloc_may_fail: true,
        ..Default::default()
    };
    let chk = checked::check(&checked::e2e("malloc_fails_racy.c"), &opts, None);
    assert_racy("malloc_fails_racy.c", &chk, &[(7, 17)]);
    let (code, out, err) = ladr(&[
        "tests/e2e/malloc_fails_racy.c",
        "--malloc-may-fail",
        "--format",
        "json",
    ]);
    assert_eq!(code, 1, "{out}{err}");
    let v: serde_json::Value = serde_json::from_str(&out).expect("JSON on stdout");
    assert_eq!(v["verdict"], "race", "{out}");
    let (_, help, _) = ladr(&["--help"]);
    assert!(help.contains("--malloc-may-fail"), "{help}");
}

/// `--malloc-may-fail` covers every allocation function POSIX lets fail with `ENOMEM`
/// (issue 16): `aligned_alloc` and `strdup` may return NULL and `posix_memalign` ENOMEM,
/// each a race on its own failure flag; without the option none fails (`aligned_alloc`,
/// which CBMC does not model, is `malloc`, not a function whose result is any value).
#[test]
fn malloc_may_fail_covers_every_allocation_function() {
    free("alloc_fails_racy.c");
    let chk = checked("alloc_fails_racy.c");
    assert!(chk.outcome.assumptions.is_empty(), "{}", chk.json);
    let (code, out, err) = ladr(&[
        "tests/e2e/alloc_fails_racy.c",
        "--malloc-may-fail",
        "--all",
        "--format",
        "json",
    ]);
    assert_eq!(code, 1, "{out}{err}");
    let v: serde_json::Value = serde_json::from_str(&out).expect("JSON on stdout");
    let mut pairs: Vec<Vec<u64>> = v["races"]
        .as_array()
        .expect("races")
        .iter()
        .map(|r| {
            let mut l: Vec<u64> = r["accesses"]
                .as_array()
                .unwrap()
                .iter()
                .map(|a| a["line"].as_u64().unwrap())
                .collect();
            l.sort();
            l
        })
        .collect();
    pairs.sort();
    pairs.dedup();
    assert_eq!(pairs, [[11, 24], [13, 24], [15, 24]], "{out}");
    let (_, help, _) = ladr(&["--help"]);
    assert!(help.contains("posix_memalign"), "{help}");
}

/// The size of a variable-length array is read where C evaluates it (issue 16): in a
/// declaration `int a[n];` and in `sizeof(int[n])`, a read of `n` that races with an
/// unjoined write, and not with one after the join.
#[test]
fn variable_array_sizes_are_reads() {
    racy("vla_size_racy.c", (4, 11));
    racy("vla_sizeof_racy.c", (5, 11));
    free("vla_size_free.c");
}

/// A global initialised with a constant and never written nor address-taken is a constant
/// loop bound (issue 16): a thread-creation loop up to it is unwound completely, so the
/// race that only the fourth thread makes is found at the default unwinding (2), and the
/// race-free twin's "no race" reports no cut.
#[test]
fn constant_globals_bound_loops() {
    racy("const_global_bound_racy.c", (7, 17));
    free("const_global_bound_free.c");
    let c = checked("const_global_bound_free.c");
    assert!(
        c.text
            .contains("no loop, recursion or thread creation was cut"),
        "{}",
        c.text
    );
}

/// `constprop`: an unwound loop's counter and the pointer an inlined function gets are
/// constants (`&cache[2]`), so CBMC sees which element each access touches; the race on
/// the element locked with the wrong mutex is still found, reported with the user's
/// expression (`e->refs`, not the folded constant).
#[test]
fn constant_locals_are_folded() {
    racy("constprop_racy.c", (5, 18));
    free("constprop_free.c");
    let c = checked("constprop_racy.c");
    let exprs: Vec<&str> = c.json_value["races"][0]["accesses"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a["expr"].as_str().unwrap())
        .collect();
    assert!(exprs.contains(&"e->refs"), "{exprs:?}");
    assert!(exprs.contains(&"cache[2].refs"), "{exprs:?}");
}

/// A function pointer parameter that holds one function (`each(bump)`) is folded into its
/// reads, so the dispatch `inline` wrote for the calls through it compares constants; the
/// race of the callback (under another mutex than the thread's) is still found.
#[test]
fn function_pointer_locals_are_folded() {
    racy_one_of("callback_racy.c", &[(13, 19), (19, 13)]);
    free("callback_free.c");
    let seq = ladr_c::print::print_unit(&translated("callback_racy.c", true).unit).text;
    let dispatch: Vec<&str> = seq
        .lines()
        .filter(|l| l.contains("== (void *)bump"))
        .collect();
    assert_eq!(dispatch.len(), 3, "{seq}");
    assert!(
        dispatch.iter().all(|l| l.contains("callback))bump")),
        "{dispatch:?}"
    );
}

/// A program that creates no thread (a lock library's single-threaded test, say) has no
/// data race, and the answer says why rather than naming bounds that cut nothing.
#[test]
fn a_program_without_threads_says_so() {
    free("no_thread_free.c");
    let c = checked("no_thread_free.c");
    assert!(
        c.text
            .contains("(the program creates no thread, so it has no data race)"),
        "{}",
        c.text
    );
}

/// A start routine passed down through parameters of a function-pointer typedef
/// (`thread_func_t fn`, two calls deep, as channel.c of sysprog21/concurrent-programs does)
/// is folded like any function pointer, so `threads` knows which routine each create
/// starts (before: "unsupported: a start routine that is not a function defined in the
/// program"). Also `void *(*f)(void *)`, a function pointer returning a pointer.
#[test]
fn start_routine_through_typedef_parameters() {
    racy("routine_typedef_racy.c", (6, 6));
    free("routine_typedef_free.c");
}

/// The lvalues `race` instruments in `tests/e2e/FILE` (as the user wrote them) and the
/// number of visible statements, with or without the race-free pre-analysis.
fn instrumented(file: &str, racefree: bool) -> (Vec<String>, u32) {
    let p = translated(file, racefree);
    let sites = p.sites.iter().skip(1).map(|s| s.expr.clone()).collect();
    (sites, p.visible_statements())
}

/// `tests/e2e/FILE` translated up to the sequential program, with or without `racefree`.
fn translated(file: &str, racefree: bool) -> ladr_ir::program::Program {
    let parsed = ladr_c::frontend::load(&checked::e2e(file), &Default::default())
        .unwrap_or_else(|e| panic!("{file}: {e}"));
    let opts = ladr_ir::program::Options {
        racefree,
        ..Default::default()
    };
    ladr_seq::pipeline::translate(
        parsed.unit,
        &opts,
        ladr_seq::pipeline::Stage::Seq,
        |_, _| {},
    )
    .unwrap_or_else(|e| panic!("{file}: {e}"))
}

/// Asserts that the race-free pre-analysis removes every access of `objects` in `file`
/// (instrumented without it), and, with `fewer_visible`, some visible statements (rule 1:
/// `main`'s solo statements; rule 2 keeps the labels of what it no longer instruments).
fn removes(file: &str, objects: &[&str], fewer_visible: bool) {
    let (all, visible_all) = instrumented(file, false);
    let (kept, visible) = instrumented(file, true);
    assert!(visible <= visible_all, "{file}: {visible} > {visible_all}");
    if fewer_visible {
        assert!(visible < visible_all, "{file}: {visible} = {visible_all}");
    }
    for o in objects {
        assert!(all.iter().any(|s| s == o), "{file}: `{o}` not in {all:?}");
        assert!(
            !kept.iter().any(|s| s == o),
            "{file}: `{o}` still in {kept:?}"
        );
    }
}

/// Rule 1 of `racefree`: `main`'s statements before its first `pthread_create` and after
/// the joins of all threads (created and joined in loops) race with nothing. When one
/// thread is not joined, `main`'s later accesses still race with it.
#[test]
fn racefree_main_alone() {
    racy_one_of("solo_main_racy.c", &[(6, 19), (8, 18)]);
    free("solo_main_free.c");
    removes("solo_main_free.c", &["config", "result"], true);
}

/// Rule 1 and `main`'s assumptions: before the first `pthread_create` no thread exists, so
/// an `abort()` there needs no context switch before it (labels there cut `main` into
/// pieces whose crossing jumps make CBMC's symbolic execution exponential); after the joins
/// it keeps one. The race between the two workers is still found.
#[test]
fn racefree_assumptions_before_the_first_create_are_not_visible() {
    racy("solo_assume_racy.c", (6, 6));
    free("solo_assume_free.c");
    let visible_assumes = |racefree: bool| -> Vec<bool> {
        let p = translated("solo_assume_racy.c", racefree);
        let mut created = false;
        let mut out = vec![];
        for it in &p.code[0].items {
            if let ladr_ir::program::Item::Visible { stmt, .. } = it {
                let text = ladr_c::print::statement_to_string(&stmt.node);
                created |= text.contains("pthread_create");
                // The user's assumptions, not `race`'s in front of a statement that may
                // synchronise (`assume(!(… && __ladr_c1_site))`).
                if text.contains(ladr_ir::abi::ASSUME) && !text.contains(ladr_ir::abi::C1_SITE) {
                    out.push(created);
                }
            }
        }
        out
    };
    // Without the pass: the two checks before the creates, the one after the joins and
    // `main`'s end; with it, those after the creates only.
    let (all, kept) = (visible_assumes(false), visible_assumes(true));
    assert_eq!(all.iter().filter(|after| !**after).count(), 2, "{all:?}");
    assert!(
        !kept.is_empty() && kept.iter().all(|after| *after),
        "{kept:?}"
    );
    assert_eq!(kept.len(), all.len() - 2);
}

/// Rule 2, read-only objects: a global only read (an array's element too) needs no flags;
/// one whose address is taken may be written through a pointer, and is.
#[test]
fn racefree_read_only_objects() {
    racy("read_only_racy.c", (6, 10));
    free("read_only_free.c");
    removes("read_only_free.c", &["limit", "table[1]"], false);
}

/// Rule 2, objects of one thread: a global only one thread accesses cannot race; the same
/// routine started twice makes two threads of it.
#[test]
fn racefree_objects_of_one_thread() {
    racy_one_of("confined_racy.c", &[(5, 5), (5, 6), (6, 6)]);
    free("confined_free.c");
    removes("confined_free.c", &["counter", "flag"], false);
}

/// A program whose every access `racefree` proves race-free instruments nothing: no
/// execution can set the race flag, so ladr answers "no race" without running CBMC on it
/// (no formula; `--keep-files` keeps the program and says so). With
/// `--no-racefree` CBMC checks every access and agrees.
#[test]
fn nothing_instrumented_is_no_race_without_cbmc() {
    let keep = tempfile::tempdir().unwrap();
    let keep_arg = keep.path().to_str().unwrap();
    let run = |extra: &[&str]| {
        let mut args = vec!["tests/e2e/lockset_free.c", "--format", "json"];
        args.extend_from_slice(extra);
        let (code, out, err) = ladr(&args);
        assert_eq!(code, 0, "{out}{err}");
        serde_json::from_str::<serde_json::Value>(&out).unwrap()
    };
    let v = run(&["--keep-files", keep_arg]);
    assert_eq!(v["verdict"], "no-race", "{v}");
    assert_eq!(v["stats"]["instrumented_accesses"], 0, "{v}");
    assert_eq!(
        v["stats"]["formula_clauses"],
        serde_json::Value::Null,
        "{v}"
    );
    let said = std::fs::read_to_string(keep.path().join("cbmc.stderr")).unwrap();
    assert_eq!(said, ladr_check::NOTHING_TO_CHECK);
    assert!(keep.path().join(ladr_check::SEQ_FILE).is_file());
    let v = run(&["--no-racefree"]);
    assert_eq!(v["verdict"], "no-race", "{v}");
    assert!(
        v["stats"]["instrumented_accesses"].as_u64().unwrap() > 0,
        "{v}"
    );
    assert!(v["stats"]["formula_clauses"].as_u64().unwrap() > 0, "{v}");
}

/// Rule 2 with mutexes inside objects (goblint's 28-race_reach_70 pattern): `&cache[i].m` as
/// a lock argument is neither an access of `cache`'s data nor an escape; a pointer
/// `constprop` folded (`e` of `addref(&cache[i])`, now also in `main`, whose two loop
/// counters `i` `inline` renamed apart) is an access of `cache` by name; unlocking `e->m`
/// leaves `g` held. Every access of `refs` is under `g`; the racy twin's unlocked write in
/// `main` races with the worker's increment.
#[test]
fn racefree_mutexes_inside_objects() {
    racy("lock_member_racy.c", (7, 23));
    free("lock_member_free.c");
    removes("lock_member_free.c", &["e->refs", "cache[1].refs"], false);
}

/// Rule 2 with a pointer used only to lock (goblint's 28-race_reach_77 pattern):
/// `p = &a[i]; lock(&p->m);` takes `a` nowhere, and releasing `p->m` leaves `g` held, so
/// `datum`, always written under `g`, is race-free; the racy twin's write without `g` races.
#[test]
fn racefree_pointer_used_only_to_lock() {
    racy("lock_through_pointer_racy.c", (12, 21));
    // The write `a[i].datum++` at a symbolic index is one step, not CBMC's rewrite of every
    // element (`a[0l] = { … }`) and member after it.
    let steps = &checked("lock_through_pointer_racy.c").steps_text;
    assert!(steps.contains(".datum = 1"), "{steps}");
    assert!(!steps.contains("a[0l]"), "{steps}");
    free("lock_through_pointer_free.c");
    removes(
        "lock_through_pointer_free.c",
        &["a[i].datum", "a[1].datum"],
        false,
    );
}

/// Rule 2, must-locksets: every access under one mutex; a read after the unlock races.
#[test]
fn racefree_lock_protected_objects() {
    racy("lockset_racy.c", (6, 17));
    free("lockset_free.c");
    removes("lockset_free.c", &["balance"], false);
}

/// `posix_memalign` whose size is an inlined helper's parameter, in a loop: the size is
/// the constant the parameter was assigned (before: CBMC's own model allocated an object
/// of the parameter's symbolic size, and CBMC 6.6 crashed on an invariant, as on mpmc.c of
/// sysprog21/concurrent-programs).
#[test]
fn posix_memalign_through_a_helper() {
    racy("memalign_racy.c", (27, 36));
    free("memalign_free.c");
}

/// `realloc` to a size that is not a constant: ladr's model (128 bytes, the old block's
/// contents, the old block freed; a `heap-size` cut) instead of CBMC's, whose block of
/// symbolic size crashed CBMC 6.6 (word-count.c of sysprog21/concurrent-programs).
#[test]
fn realloc_to_a_symbolic_size() {
    racy("realloc_symbolic_racy.c", (12, 28));
    free("realloc_symbolic_free.c");
    let c = checked("realloc_symbolic_free.c");
    assert!(c.json.contains("heap-size"), "{}", c.json);
}

/// Both accesses of a reported race are accesses of the same memory, named by the
/// expression whose access races (issue 27, item 3): when C1's last statement accesses
/// several shared objects, C2's check names the access of C1 that set the flag it found
/// (each access's number in its statement, kept in the shadow field), not the statement's
/// last read or write. Before, `--all` on `peak_racy.c` paired a read of `g_stats.peak`
/// with a write of `g_stats.pushes`, and a suppression naming the wrong variable passed.
#[test]
fn a_race_names_the_memory_both_accesses_touch() {
    for (file, expected) in [
        ("sum_racy.c", &["x"][..]),
        ("peak_racy.c", &["g_stats.peak", "g_stats.pushes"][..]),
    ] {
        let all = checked_all(file);
        let json = &all.json;
        assert_eq!(all.outcome.verdict, "race", "{json}");
        let mut named = vec![];
        for r in all.json_value["races"].as_array().unwrap() {
            let acc = r["accesses"].as_array().unwrap();
            assert_eq!(acc[0]["expr"], acc[1]["expr"], "{file}: {json}");
            named.push(acc[0]["expr"].as_str().unwrap().to_string());
        }
        named.sort();
        named.dedup();
        assert_eq!(named, expected, "{file}: {json}");
    }
    free("sum_free.c");
    free("peak_free.c");
}

/// `sem_timedwait` (and `sem_clockwait`) may time out, and then orders nothing: the write
/// after an unchecked timed wait races (it was modelled as `sem_wait`: "no race"), the one
/// after a wait that took the semaphore does not. `pthread_atfork` is accepted (its
/// handlers run only at `fork`, which ladr refuses). `strncpy` with a size from `sizeof`
/// from two threads races (issue 27 item 9: CBMC once aborted on it).
#[test]
fn timed_waits_may_time_out() {
    racy("sem_timedwait_racy.c", (11, 22));
    free("sem_timedwait_free.c");
    racy("strncpy_racy.c", (8, 14));
}

/// A library function returning a pointer to a struct the program never completes
/// (`opendir`'s `DIR *`) gets a fresh object of one byte: `sizeof` of its pointee made
/// CBMC reject the program, so every such program had no answer.
#[test]
fn opaque_library_objects_are_fresh_objects() {
    racy("opendir_racy.c", (8, 14));
    free("opendir_free.c");
}

/// Issue 27 item 11: a thread's interleaving lists only lines of its own code. CBMC's one
/// body of a library function (`__atomic_fetch_add_S32`, behind <stdatomic.h>'s
/// `atomic_fetch_add`) is located at its first call, so its steps showed that line (main's
/// line 16) in thread 1's context too.
#[test]
fn library_steps_show_no_line_of_another_thread() {
    racy("stdatomic_lines_racy.c", (10, 17));
    let (code, out, err) = ladr(&["tests/e2e/stdatomic_lines_racy.c", "--format", "json"]);
    assert_eq!(code, 1, "{out}{err}");
    let v: serde_json::Value = serde_json::from_str(&out).expect("JSON on stdout");
    for c in v["races"][0]["interleaving"].as_array().unwrap() {
        let lines: Vec<u64> = c["lines"]
            .as_array()
            .unwrap()
            .iter()
            .map(|l| l["line"].as_u64().unwrap())
            .collect();
        let own = if c["thread"]["slot"] == 0 {
            13..=20
        } else {
            8..=12
        };
        assert!(lines.iter().all(|l| own.contains(l)), "{lines:?} in {out}");
    }
}

/// Issue 27 item 7: relaxed atomic operations order nothing (C11 5.1.2.4), so a plain
/// write published by a relaxed store races with a read after a relaxed load ("no race"
/// before: the flag ordered them in every interleaving); with release/acquire or
/// sequentially consistent operations the accesses are ordered and never race.
#[test]
fn relaxed_atomics_order_nothing() {
    racy("relaxed_publish_racy.c", (8, 16));
    free("relaxed_publish_free.c");
    racy("relaxed_builtin_racy.c", (5, 14));
    free("relaxed_builtin_free.c");
}

/// A bit-field's memory location is its run of adjacent bit-fields, apart from the members
/// around it (C11 3.14): its race flags are kept on one byte of the run, not on the whole
/// struct (which made a write of `s.a` race with a write of `s.d`).
#[test]
fn bit_fields_race_only_with_their_own_run() {
    racy("bitfield_racy.c", (5, 11));
    free("bitfield_free.c");
}

/// A library call accesses every byte it covers (issue 27, item 2): `memcpy(&cfg, &n,
/// sizeof cfg)` writes `cfg.len` too, so a read of it in another thread races (before,
/// only the first byte was an access: "no race"); copying only `sizeof cfg.version` bytes
/// does not touch `cfg.len`. A size that is no constant (`memset(buf, 0, n)`) covers the
/// first and the last byte.
#[test]
fn library_calls_access_every_byte_they_cover() {
    racy("memcpy_range_racy.c", (10, 14));
    free("memcpy_range_free.c");
    racy("memset_symbolic_racy.c", (6, 10));
}

/// The MT-Unsafe C library functions keep hidden static state (issue 27): two threads
/// calling `strtok` race on it at their calls, reported as libc's state of `strtok`; so do
/// `rand` and a `getenv` beside a `setenv`. `strtok_r`, calls under one mutex, a program's
/// own `strtok` and two `getenv`s (which only read the environment) do not race.
#[test]
fn library_functions_race_on_their_hidden_state() {
    racy("strtok_racy.c", (5, 5));
    let c = checked("strtok_racy.c");
    for a in c.json_value["races"][0]["accesses"].as_array().unwrap() {
        assert_eq!(a["expr"], "libc's state of `strtok`", "{}", c.json);
        assert_eq!(a["libc_state"], "strtok", "{}", c.json);
        assert_eq!(a["kind"], "write", "{}", c.json);
        assert_eq!(a["column"], 16, "{}", c.json);
    }
    assert!(
        c.text
            .contains("data race on libc's state of `strtok` between"),
        "{}",
        c.text
    );
    racy("rand_racy.c", (6, 6));
    racy("getenv_racy.c", (4, 8));
    let c = checked("getenv_racy.c");
    let kinds: Vec<(&str, &str)> = c.json_value["races"][0]["accesses"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| {
            (
                a["libc_state"].as_str().unwrap(),
                a["kind"].as_str().unwrap(),
            )
        })
        .collect();
    assert!(kinds.contains(&("getenv", "read")), "{kinds:?}");
    assert!(kinds.contains(&("setenv", "write")), "{kinds:?}");
    free("strtok_free.c");
    free("strtok_locked_free.c");
    free("strtok_own_free.c");
    free("getenv_free.c");
}

/// A loop built with a backward `goto` into a block that does not enclose it (issue 27):
/// unwound like a loop, copy k's `goto` entering copy k+1 at the label, so the write that
/// only the second pass makes races with the reader, and the twin whose write needs a
/// third pass (the goto no longer jumps then) does not. Was refused ("label not in an
/// enclosing block").
#[test]
fn backward_gotos_across_blocks_are_unwound() {
    racy("goto_across_blocks_racy.c", (9, 16));
    free("goto_across_blocks_free.c");
    // A forward goto to the label inside the loop stays in its pass: taken, the loop runs
    // twice and writes; not taken, once, and does not.
    racy("goto_across_blocks_forward_racy.c", (12, 18));
    free("goto_across_blocks_forward_free.c");
}

/// A key destructor given through a helper's parameter (`make_key(&key, release)`) or a
/// function pointer global never written again is that function (issue 27; was refused as
/// "neither a function defined in the program nor `free`"): its write at the thread's exit
/// races with `main`'s read before the join, through either key, and not after the join.
#[test]
fn key_destructors_through_variables() {
    racy("key_destructor_pointer_racy.c", (6, 22));
    racy("key_destructor_global_pointer_racy.c", (6, 22));
    free("key_destructor_pointer_free.c");
}
