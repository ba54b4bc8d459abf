//! Library mode (issue 32): `ladr FILE --entry f --entry g` on the small library of
//! tests/data/library (no `main`: `counter_add`/`counter_reset` race on `hits`,
//! `total_add` locks `total_lock`), `[[harness]] entries = "auto"` in `ladr check`, the
//! refusals, and `ladr init` from a compile database.

use super::ladr;
use serde_json::Value;
use std::path::Path;
use std::process::Command;

const LIBRARY: &str = "tests/data/library";

/// `ladr LIBRARY/FILE ARGS --format json` (fixed bounds): exit status and document.
fn entries(file: &str, args: &[&str]) -> (i32, Value) {
    let path = format!("{LIBRARY}/{file}");
    let mut all = vec![path.as_str(), "--format", "json"];
    all.extend_from_slice(args);
    let (code, out, err) = ladr(&all);
    let v = serde_json::from_str(&out).unwrap_or_else(|e| panic!("{e}: {out}\n{err}"));
    (code, v)
}

/// The races' (line, thread function) pairs, each sorted.
fn races(doc: &Value) -> Vec<Vec<(u64, String)>> {
    doc["races"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            let mut a: Vec<(u64, String)> = r["accesses"]
                .as_array()
                .unwrap()
                .iter()
                .map(|a| {
                    (
                        a["line"].as_u64().unwrap(),
                        a["thread"]["function"].as_str().unwrap().to_string(),
                    )
                })
                .collect();
            a.sort();
            a
        })
        .collect()
}

/// The gate document's (harness name, verdict) pairs, in its order.
fn harness_verdicts(doc: &Value) -> Vec<(&str, &str)> {
    doc["harnesses"]
        .as_array()
        .unwrap()
        .iter()
        .map(|h| {
            (
                h["name"].as_str().unwrap(),
                h["outcome"]["verdict"].as_str().unwrap(),
            )
        })
        .collect()
}

fn assumptions(doc: &Value) -> String {
    doc["assumptions"].to_string()
}

#[test]
fn racy_pair_is_reported_with_the_entries_names() {
    let (code, doc) = entries(
        "counter.c",
        &["--entry", "counter_add", "--entry", "counter_reset"],
    );
    assert_eq!(code, 1, "{doc}");
    assert_eq!(
        races(&doc)[0],
        vec![(12, "counter_add".into()), (17, "counter_reset".into())]
    );
    let a = assumptions(&doc);
    assert!(a.contains("library mode: a generated `main`"), "{a}");
    assert!(a.contains("`counter_add`, `counter_reset`"), "{a}");
    // The text report names the threads after the entries, not `main`.
    let (code, out, err) = ladr(&[
        "tests/data/library/counter.c",
        "--entry",
        "counter_add",
        "--entry",
        "counter_reset",
    ]);
    assert_eq!(code, 1);
    let err = format!("{out}{err}");
    assert!(err.contains("thread 1 (`counter_add`"), "{err}");
    assert!(err.contains("thread 2 (`counter_reset`"), "{err}");
}

#[test]
fn protected_pair_has_no_race() {
    let (code, doc) = entries(
        "counter.c",
        &["--entry", "total_add", "--entry", "total_add"],
    );
    assert_eq!(code, 0, "{doc}");
    assert_eq!(doc["verdict"], "no-race");
    assert!(
        assumptions(&doc).contains("fresh objects of its own"),
        "{doc}"
    );
}

#[test]
fn an_entry_twice_runs_on_two_threads() {
    let (code, doc) = entries(
        "counter.c",
        &["--entry", "counter_add", "--entry", "counter_add"],
    );
    assert_eq!(code, 1, "{doc}");
    assert_eq!(
        races(&doc)[0],
        vec![(12, "counter_add".into()), (12, "counter_add".into())]
    );
    let slots: Vec<u64> = doc["races"][0]["accesses"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a["thread"]["slot"].as_u64().unwrap())
        .collect();
    assert!(slots.contains(&1) && slots.contains(&2), "{slots:?}");
}

#[test]
fn share_args_gives_the_entries_one_object() {
    let (code, doc) = entries("shared.c", &["--entry", "bump", "--entry", "bump"]);
    assert_eq!(
        (code, doc["verdict"].as_str()),
        (0, Some("no-race")),
        "{doc}"
    );
    let (code, doc) = entries(
        "shared.c",
        &["--entry", "bump", "--entry", "bump", "--share-args"],
    );
    assert_eq!(code, 1, "{doc}");
    assert_eq!(races(&doc)[0], vec![(5, "bump".into()), (5, "bump".into())]);
    assert!(assumptions(&doc).contains("--share-args"), "{doc}");
}

#[test]
fn init_with_parameters_initialises_the_shared_objects() {
    // On a zeroed queue every entry returns at once: no race.
    let base = [
        "--entry",
        "queue_push",
        "--entry",
        "queue_peek",
        "--share-args",
    ];
    let (code, doc) = entries("queue.c", &base);
    assert_eq!(
        (code, doc["verdict"].as_str()),
        (0, Some("no-race")),
        "{doc}"
    );
    // Initialised by `queue_init(&shared)`, the unlocked peek races with the push.
    let with_init = [&base[..], &["--init", "queue_init"]].concat();
    let (code, doc) = entries("queue.c", &with_init);
    assert_eq!(code, 1, "{doc}");
    assert_eq!(
        races(&doc)[0],
        vec![(34, "queue_push".into()), (43, "queue_peek".into())]
    );
    assert!(
        assumptions(&doc).contains("then as `--init` leaves it"),
        "{doc}"
    );
    // A constructor as --init: its result is the queue the entries share.
    let with_new = [&base[..], &["--init", "queue_new"]].concat();
    let (code, doc) = entries("queue.c", &with_new);
    assert_eq!(code, 1, "{doc}");
    assert_eq!(
        races(&doc)[0],
        vec![(34, "queue_push".into()), (43, "queue_peek".into())]
    );
    // The locked size does not.
    let (code, doc) = entries(
        "queue.c",
        &[
            "--entry",
            "queue_push",
            "--entry",
            "queue_size",
            "--share-args",
            "--init",
            "queue_init",
        ],
    );
    assert_eq!(
        (code, doc["verdict"].as_str()),
        (0, Some("no-race")),
        "{doc}"
    );
    // Without --share-args, an init with parameters has nothing to initialise.
    let (code, doc) = entries(
        "queue.c",
        &[
            "--entry",
            "queue_push",
            "--entry",
            "queue_peek",
            "--init",
            "queue_init",
        ],
    );
    assert_eq!(code, 2, "{doc}");
    assert!(doc.to_string().contains("give --share-args"), "{doc}");
}

#[test]
fn the_programs_own_main_is_not_run() {
    let (code, doc) = entries("with_main.c", &["--entry", "touch", "--entry", "touch"]);
    assert_eq!(code, 1, "{doc}");
    assert!(assumptions(&doc).contains("own `main` is not run"), "{doc}");
}

#[test]
fn entries_ladr_cannot_call_are_located_errors() {
    let cases: [(&str, &[&str]); 5] = [
        ("log_line", &["variadic", "errors.c:3"]),
        ("level", &["not a function", "errors.c:2"]),
        (
            "undefined_elsewhere",
            &["declared but not defined", "errors.c:4"],
        ),
        ("with_callback", &["function pointer", "errors.c:5"]),
        ("nope", &["no function of that name"]),
    ];
    for (entry, wanted) in cases {
        let (code, _, err) = ladr(&[
            "tests/data/library/errors.c",
            "--entry",
            entry,
            "--entry",
            entry,
        ]);
        assert_eq!(code, 2, "{entry}: {err}");
        for w in wanted {
            assert!(err.contains(w), "{entry}: no `{w}` in {err}");
        }
    }
    let (code, _, err) = ladr(&["tests/data/library/counter.c", "--entry", "a;b"]);
    assert_eq!(code, 2);
    assert!(err.contains("not the name of a C function"), "{err}");
}

/// `ladr ARGS` in `dir`.
fn ladr_in(dir: &Path, args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_ladr"))
        .current_dir(dir)
        .args(args)
        .output()
        .expect("run ladr");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// A project: the library in `src/`, an executable's unit in `app/`, and a CMake-style
/// compile database in `build/`.
fn project() -> tempfile::TempDir {
    let t = tempfile::tempdir().unwrap();
    let d = t.path();
    for sub in ["src", "app", "build"] {
        std::fs::create_dir_all(d.join(sub)).unwrap();
    }
    let lib = Path::new(env!("CARGO_MANIFEST_DIR")).join(LIBRARY);
    std::fs::copy(lib.join("counter.c"), d.join("src/counter.c")).unwrap();
    std::fs::write(d.join("app/main.c"), "int main(void) { return 0; }\n").unwrap();
    let build = d.join("build");
    let db = serde_json::json!([
        {"directory": build, "file": "../src/counter.c",
         "arguments": ["cc", "-c", "../src/counter.c"],
         "output": "CMakeFiles/counter.dir/src/counter.c.o"},
        {"directory": build, "file": d.join("app/main.c"),
         "command": "cc -c ../app/main.c", "output": "CMakeFiles/app.dir/app/main.c.o"},
    ]);
    std::fs::write(build.join("compile_commands.json"), db.to_string()).unwrap();
    t
}

#[test]
fn init_writes_a_library_harness_per_target_from_the_compile_database() {
    let t = project();
    let (code, _, err) = ladr_in(t.path(), &["init"]);
    assert_eq!(code, 0, "{err}");
    assert!(err.contains("2 C translation units in 2 targets"), "{err}");
    let toml = std::fs::read_to_string(t.path().join("ladr.toml")).unwrap();
    assert!(
        toml.contains(
            "[[harness]]\nname = \"counter\"\nfiles = [\"src/counter.c\"]\nentries = \"auto\""
        ),
        "{toml}"
    );
    assert!(
        toml.contains("compile-commands = \"build/compile_commands.json\""),
        "{toml}"
    );
    // The executable's unit is only mentioned.
    assert!(toml.contains("# `app` defines `main`"), "{toml}");
    assert!(!toml.contains("\nname = \"app\""), "{toml}");
    // Never overwritten without --force.
    std::fs::write(t.path().join("ladr.toml"), "# mine\n").unwrap();
    let (code, _, err) = ladr_in(t.path(), &["init"]);
    assert_eq!(code, 2, "{err}");
    assert_eq!(
        std::fs::read_to_string(t.path().join("ladr.toml")).unwrap(),
        "# mine\n"
    );
    // A database named elsewhere.
    std::fs::rename(t.path().join("build"), t.path().join("elsewhere")).unwrap();
    let (code, _, err) = ladr_in(
        t.path(),
        &["init", "--force", "--compile-commands", "elsewhere"],
    );
    assert_eq!(code, 0, "{err}");
    let toml = std::fs::read_to_string(t.path().join("ladr.toml")).unwrap();
    assert!(toml.contains("elsewhere/compile_commands.json"), "{toml}");
}

#[test]
fn check_with_auto_entries_checks_every_pair() {
    let t = project();
    std::fs::write(
        t.path().join("ladr.toml"),
        "deepen = false\n[[harness]]\nname = \"lib\"\nfiles = [\"src/counter.c\"]\nentries = \"auto\"\n",
    )
    .unwrap();
    let (code, out, err) = ladr_in(t.path(), &["check", "--format", "json", "-q"]);
    assert_eq!(code, 1, "{err}");
    let doc: Value = serde_json::from_str(&out).unwrap();
    let want = [
        ("lib:counter_add+counter_add", "race"),
        ("lib:counter_reset+counter_reset", "race"),
        ("lib:total_add+total_add", "no-race"),
        ("lib:counter_add+counter_reset", "race"),
        ("lib:counter_reset+total_add", "no-race"),
        ("lib:counter_add+total_add", "no-race"),
    ];
    assert_eq!(harness_verdicts(&doc), want);
    // max-pairs bounds the pairs, and every answer says so.
    std::fs::write(
        t.path().join("ladr.toml"),
        "deepen = false\n[[harness]]\nname = \"lib\"\nfiles = [\"src/counter.c\"]\nentries = \"auto\"\nmax-pairs = 1\n",
    )
    .unwrap();
    let (code, out, err) = ladr_in(t.path(), &["check", "--format", "json", "-q"]);
    assert_eq!(code, 1, "{err}");
    let doc: Value = serde_json::from_str(&out).unwrap();
    let hs = doc["harnesses"].as_array().unwrap();
    assert_eq!(hs.len(), 1);
    assert!(
        hs[0]["outcome"]["assumptions"]
            .to_string()
            .contains("1 of the 6 pairs of 3 exported functions"),
        "{}",
        hs[0]
    );
}

#[test]
fn config_entries_are_checked() {
    let t = project();
    for (text, wanted) in [
        ("entries = \"all\"", "give a list of functions or \"auto\""),
        ("entries = [\"a b\"]", "not the name of a C function"),
        ("init = \"setup\"", "for library mode"),
    ] {
        std::fs::write(
            t.path().join("ladr.toml"),
            format!("[[harness]]\nname = \"lib\"\nfiles = [\"src/counter.c\"]\n{text}\n"),
        )
        .unwrap();
        let (code, _, err) = ladr_in(t.path(), &["check", "-q"]);
        assert_eq!(code, 2, "{text}: {err}");
        assert!(
            err.contains(wanted) && err.contains("ladr.toml:4"),
            "{text}: {err}"
        );
    }
}

/// A library of two files and no `main` links as one program: an entry of one file calls
/// a function of the other. Without an entry, the program has no `main` (as one file).
#[test]
fn a_library_of_several_files_links_without_main() {
    let counter = format!("{LIBRARY}/counter.c");
    let (code, doc) = entries(
        "gauge.c",
        &[
            &counter,
            "--entry",
            "gauge_bump",
            "--entry",
            "counter_reset",
        ],
    );
    assert_eq!(code, 1, "{doc}");
    assert_eq!(
        races(&doc)[0],
        vec![(12, "gauge_bump".into()), (17, "counter_reset".into())]
    );
    let (code, _, err) = ladr(&[&format!("{LIBRARY}/gauge.c"), &counter]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("has no `main` function"), "{err}");
    assert!(err.contains("--entry"), "{err}");
}

/// `ladr FILE --entries auto`: the pairs of `entries = "auto"`, checked by the gate from
/// the command line, reported as `ladr check` reports them.
#[test]
fn entries_auto_on_the_command_line_checks_every_pair() {
    let counter = format!("{LIBRARY}/counter.c");
    let (code, out, err) = ladr(&[&counter, "--entries", "auto", "--format", "json", "-q"]);
    assert_eq!(code, 1, "{err}");
    let doc: Value = serde_json::from_str(&out).unwrap_or_else(|e| panic!("{e}: {out}"));
    let want = [
        ("auto:counter_add+counter_add", "race"),
        ("auto:counter_reset+counter_reset", "race"),
        ("auto:total_add+total_add", "no-race"),
        ("auto:counter_add+counter_reset", "race"),
        ("auto:counter_reset+total_add", "no-race"),
        ("auto:counter_add+total_add", "no-race"),
    ];
    assert_eq!(harness_verdicts(&doc), want);
    // --max-pairs bounds them; the text report is the gate's table.
    let (code, out, err) = ladr(&[&counter, "--entries", "auto", "--max-pairs", "2", "-q"]);
    assert_eq!(code, 1, "{err}");
    assert!(out.contains("auto:counter_add+counter_add"), "{out}");
    assert!(out.contains("auto:counter_reset+counter_reset"), "{out}");
    assert!(!out.contains("total_add"), "{out}");
    // One check's options are refused with it, and --init needs library mode.
    let (code, _, err) = ladr(&[&counter, "--entries", "auto", "--emit", "parsed"]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("--entry f --entry g"), "{err}");
    let (code, _, err) = ladr(&[&counter, "--init", "total_add"]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("for library mode"), "{err}");
}

/// CMake before 3.20 writes no `output`: the target is read from the `-o` of the command;
/// a `main` behind a calling-convention macro makes a unit an executable's.
#[test]
fn init_reads_targets_from_the_commands_output_option() {
    let t = project();
    let d = t.path();
    std::fs::write(
        d.join("app/main.c"),
        "#define CDECL\nint CDECL main(void)\n{\n    return 0;\n}\n",
    )
    .unwrap();
    let build = d.join("build");
    let db = serde_json::json!([
        {"directory": build, "file": d.join("src/counter.c"),
         "command": "cc -o CMakeFiles/counter.dir/src/counter.c.o -c ../src/counter.c"},
        {"directory": build, "file": d.join("app/main.c"),
         "command": "cc -o CMakeFiles/app.dir/app/main.c.o -c ../app/main.c"},
    ]);
    std::fs::write(build.join("compile_commands.json"), db.to_string()).unwrap();
    let (code, _, err) = ladr_in(d, &["init"]);
    assert_eq!(code, 0, "{err}");
    let toml = std::fs::read_to_string(d.join("ladr.toml")).unwrap();
    assert!(toml.contains("name = \"counter\""), "{toml}");
    assert!(toml.contains("# `app` defines `main`"), "{toml}");
}
