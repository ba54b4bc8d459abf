//! A repository as a maintainer has it: the small message-queue library of
//! tests/data/project (three `.c` files and a header, a `static clamp` in two of them, a
//! `compile_commands.json` that defines the `MQ_CAPACITY` the header needs, a `ladr.toml`
//! with two harnesses), checked by `ladr FILE...` and by the gate `ladr check`. Each test
//! works on its own copy, so it can edit sources, config and baseline.

use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::Command;

const PROJECT: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/project");

/// A fresh copy of the project.
struct Repo {
    dir: tempfile::TempDir,
}

impl Repo {
    fn new() -> Repo {
        let dir = tempfile::tempdir().unwrap();
        copy(Path::new(PROJECT), dir.path());
        Repo { dir }
    }

    fn path(&self, rel: &str) -> PathBuf {
        self.dir.path().join(rel)
    }

    /// Replaces `old` (which must be there) by `new` in file `rel`.
    fn edit(&self, rel: &str, old: &str, new: &str) {
        let p = self.path(rel);
        let text = std::fs::read_to_string(&p).unwrap();
        assert!(text.contains(old), "{rel} has no `{old}`");
        std::fs::write(&p, text.replacen(old, new, 1)).unwrap();
    }

    fn append(&self, rel: &str, text: &str) {
        let p = self.path(rel);
        let old = std::fs::read_to_string(&p).unwrap();
        std::fs::write(&p, format!("{old}{text}")).unwrap();
    }

    /// Runs ladr in the copy: exit status, stdout, stderr.
    fn ladr(&self, args: &[&str]) -> (i32, String, String) {
        let out = Command::new(env!("CARGO_BIN_EXE_ladr"))
            .current_dir(self.dir.path())
            // The gate's result cache: this copy's own, out of the user's.
            .env("XDG_CACHE_HOME", self.dir.path().join(".xdg-cache"))
            .args(args)
            .output()
            .expect("run ladr");
        (
            out.status.code().unwrap_or(-1),
            String::from_utf8_lossy(&out.stdout).into_owned(),
            String::from_utf8_lossy(&out.stderr).into_owned(),
        )
    }

    /// `ladr check --format json ARGS`: the exit status and the document.
    fn check(&self, args: &[&str]) -> (i32, Value) {
        let mut all = vec!["check", "--format", "json"];
        all.extend_from_slice(args);
        let (code, out, err) = self.ladr(&all);
        let v: Value = serde_json::from_str(&out)
            .unwrap_or_else(|e| panic!("not JSON ({e}): {out}\nstderr: {err}"));
        (code, v)
    }
}

fn copy(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for e in std::fs::read_dir(from).unwrap().flatten() {
        let target = to.join(e.file_name());
        if e.file_type().unwrap().is_dir() {
            copy(&e.path(), &target);
        } else {
            std::fs::copy(e.path(), target).unwrap();
        }
    }
}

/// `file:line` of both accesses of every race of harness `name`, each pair sorted.
fn race_lines(v: &Value, name: &str) -> Vec<[String; 2]> {
    let h = harness(v, name);
    let mut out: Vec<[String; 2]> = h["outcome"]["races"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            let at = |a: &Value| format!("{}:{}", a["file"].as_str().unwrap(), a["line"]);
            let mut p = [at(&r["accesses"][0]), at(&r["accesses"][1])];
            p.sort();
            p
        })
        .collect();
    out.sort();
    out
}

fn harness<'v>(v: &'v Value, name: &str) -> &'v Value {
    v["harnesses"]
        .as_array()
        .unwrap()
        .iter()
        .find(|h| h["name"] == name)
        .unwrap_or_else(|| panic!("no harness {name}: {v}"))
}

/// The two races of the `queue` harness: one across files (the harness reads the counter
/// stats.c writes), one inside mq.c.
fn queue_races() -> Vec<[String; 2]> {
    vec![
        ["src/mq.c:20".into(), "src/mq.c:27".into()],
        ["src/stats.c:10".into(), "tests/queue_harness.c:15".into()],
    ]
}

#[test]
fn several_files_with_the_build_flags_are_one_program() {
    let r = Repo::new();
    let files = ["tests/queue_harness.c", "src/mq.c", "src/stats.c"];
    // The header refuses to be read without the build's -DMQ_CAPACITY.
    let (code, _, err) = r.ladr(&[files[0], files[1], files[2], "-I", "include"]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("MQ_CAPACITY"), "{err}");
    let (code, out, err) = r.ladr(&[
        files[0],
        files[1],
        files[2],
        "--compile-commands",
        ".",
        "--all",
        "--no-deepen",
        "--format",
        "json",
    ]);
    assert_eq!(code, 1, "{err}");
    let v: Value = serde_json::from_str(&out).unwrap();
    let doc = serde_json::json!({"harnesses": [{"name": "cli", "outcome": v}]});
    assert_eq!(race_lines(&doc, "cli"), queue_races());
    // Each file's `static clamp` is its own: both stay functions (no context switch can
    // happen in them, so they are called, not inlined), renamed apart, each called where its
    // file calls it (a one-line body that only returns shows no line of its own in the
    // interleaving: CBMC's only step there is the return value).
    let (code, seq, err) = r.ladr(&[
        files[0],
        files[1],
        files[2],
        "--compile-commands",
        ".",
        "--emit",
        "seq",
    ]);
    assert_eq!(code, 0, "{err}");
    let defined: Vec<&str> = seq
        .lines()
        .filter(|l| l.starts_with("static int clamp") && l.ends_with('{'))
        .collect();
    assert_eq!(defined.len(), 2, "{defined:?}");
    // The accesses name their functions, as written (not as linked).
    let fns: Vec<&str> = v["races"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|r| r["accesses"].as_array().unwrap().iter())
        .filter_map(|a| a["function"].as_str())
        .collect();
    assert!(
        fns.contains(&"stats_add") && fns.contains(&"mq_dropped"),
        "{fns:?}"
    );
}

#[test]
fn the_gate_reports_every_race_of_every_harness_and_fails() {
    let r = Repo::new();
    let (code, v) = r.check(&["--sarif", "out.sarif"]);
    assert_eq!(code, 1, "{v}");
    assert_eq!(race_lines(&v, "queue"), queue_races());
    assert_eq!(harness(&v, "stats")["outcome"]["verdict"], "no-race");
    assert_eq!(v["summary"]["new"], 2);
    for race in harness(&v, "queue")["outcome"]["races"].as_array().unwrap() {
        assert_eq!(race["state"], "new");
        assert_eq!(race["fingerprint"].as_str().unwrap().len(), 16);
    }
    // One SARIF run, one result per race, with the same fingerprints.
    let sarif: Value =
        serde_json::from_str(&std::fs::read_to_string(r.path("out.sarif")).unwrap()).unwrap();
    let results = sarif["runs"][0]["results"].as_array().unwrap();
    assert_eq!(results.len(), 2);
    assert!(results
        .iter()
        .all(|x| x["properties"]["harness"] == "queue"));
    assert_eq!(sarif["runs"][0]["invocations"].as_array().unwrap().len(), 2);
    // The text: the table and the failed gate.
    let (code, text, _) = r.ladr(&["check"]);
    assert_eq!(code, 1);
    assert!(text.contains("race gate: FAILED, 2 new races"), "{text}");
    assert!(text.contains("src/stats.c:10"), "{text}");
    // A page per race.
    let (code, _, err) = r.ladr(&["check", "--html", "pages"]);
    assert_eq!(code, 1, "{err}");
    let index = std::fs::read_to_string(r.path("pages/index.html")).unwrap();
    assert!(
        index.contains("queue-1.html") && index.contains("queue-2.html"),
        "{index}"
    );
    let page = std::fs::read_to_string(r.path("pages/queue-1.html")).unwrap();
    assert!(page.contains("<html") && page.contains("src/"), "{page}");
    // One harness by name.
    let (code, v) = r.check(&["stats"]);
    assert_eq!(
        (code, v["harnesses"].as_array().unwrap().len()),
        (0, 1),
        "{v}"
    );
}

#[test]
fn suppressions_turn_the_gate_green_and_stale_ones_are_reported() {
    let r = Repo::new();
    // In source, on the line above the read; in the config, by variable.
    r.edit(
        "src/mq.c",
        "  return q->count;",
        "  // ladr: allow(data-race) an estimate, read without the lock on purpose\n  return q->count;",
    );
    r.append(
        "ladr.toml",
        "\n[[allow]]\nvariable = \"mq_total\"\nreason = \"statistics\"\n\n[[allow]]\nfunction = \"no_such_function\"\nreason = \"left over\"\n",
    );
    let (code, v) = r.check(&["--sarif", "out.sarif"]);
    assert_eq!(code, 0, "{v}");
    assert_eq!(v["summary"]["suppressed"], 2);
    let races = harness(&v, "queue")["outcome"]["races"].as_array().unwrap();
    let kinds: Vec<&str> = races
        .iter()
        .map(|x| x["suppression"]["kind"].as_str().unwrap())
        .collect();
    assert!(
        kinds.contains(&"inSource") && kinds.contains(&"external"),
        "{kinds:?}"
    );
    let stale = v["stale_suppressions"].as_array().unwrap();
    assert_eq!(stale.len(), 1, "{stale:?}");
    assert_eq!(stale[0]["justification"], "left over");
    let sarif: Value =
        serde_json::from_str(&std::fs::read_to_string(r.path("out.sarif")).unwrap()).unwrap();
    for res in sarif["runs"][0]["results"].as_array().unwrap() {
        let s = &res["suppressions"][0];
        assert!(s["kind"] == "inSource" || s["kind"] == "external", "{res}");
        assert!(!s["justification"].as_str().unwrap().is_empty());
    }
    let (_, text, _) = r.ladr(&["check"]);
    assert!(
        text.contains("suppressed (in source at src/mq.c:27"),
        "{text}"
    );
    assert!(text.contains("stale suppression at"), "{text}");
    assert!(text.contains("race gate: passed"), "{text}");
}

#[test]
fn a_baseline_keeps_old_races_and_fails_on_a_new_one() {
    let r = Repo::new();
    let (code, _) = r.check(&["--json", "base.json", "--sarif", "base.sarif"]);
    assert_eq!(code, 1);
    // The same races against either baseline: unchanged, the gate passes.
    for base in ["base.json", "base.sarif"] {
        let (code, v) = r.check(&["--baseline", base]);
        assert_eq!(code, 0, "{base}: {v}");
        assert_eq!(v["summary"]["unchanged"], 2, "{base}");
    }
    // Unrelated lines move: still unchanged.
    r.edit("src/stats.c", "long mq_total;", "\n\nlong mq_total;");
    // A new race: stats_read without its lock.
    r.edit(
        "src/stats.c",
        "  pthread_mutex_lock(&stats_lock);\n  t = mq_total;\n  pthread_mutex_unlock(&stats_lock);",
        "  t = mq_total;",
    );
    let (code, v) = r.check(&["--baseline", "base.json", "--sarif", "new.sarif"]);
    assert_eq!(code, 1, "{v}");
    assert_eq!(v["summary"]["new"], 1, "{v}");
    assert_eq!(v["summary"]["unchanged"], 2, "{v}");
    let stats = &harness(&v, "stats")["outcome"]["races"];
    assert_eq!(stats[0]["state"], "new");
    let sarif: Value =
        serde_json::from_str(&std::fs::read_to_string(r.path("new.sarif")).unwrap()).unwrap();
    let states: Vec<&str> = sarif["runs"][0]["results"]
        .as_array()
        .unwrap()
        .iter()
        .map(|x| x["baselineState"].as_str().unwrap())
        .collect();
    assert_eq!(
        states.iter().filter(|s| **s == "new").count(),
        1,
        "{states:?}"
    );
    assert_eq!(
        states.iter().filter(|s| **s == "unchanged").count(),
        2,
        "{states:?}"
    );
    // A race fixed since the baseline is absent.
    r.edit("src/mq.c", "  return q->count;", "  return 0;");
    let (code, v) = r.check(&["--baseline", "base.json", "queue"]);
    assert_eq!(code, 0, "{v}");
    assert_eq!(v["absent"].as_array().unwrap().len(), 1, "{v}");
}

#[test]
fn configuration_errors_name_the_file_and_line() {
    let r = Repo::new();
    r.append(
        "ladr.toml",
        "\n[[harness]]\nname = \"x\"\nfiles = [\"tests/none_*.c\"]\n",
    );
    let (code, _, err) = r.ladr(&["check"]);
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("ladr.toml:17:9") && err.contains("matches no file"),
        "{err}"
    );
    let (code, _, err) = r.ladr(&["check", "--config", "missing.toml"]);
    assert_eq!(code, 2);
    assert!(err.contains("ladr init"), "{err}");
    let (code, _, err) = Repo::new().ladr(&["check", "nonesuch"]);
    assert_eq!(code, 2);
    assert!(
        err.contains("no harness `nonesuch`") && err.contains("queue, stats"),
        "{err}"
    );
    // `ladr init` writes a starter that names its own (missing) example files.
    let fresh = tempfile::tempdir().unwrap();
    let init = Command::new(env!("CARGO_BIN_EXE_ladr"))
        .current_dir(fresh.path())
        .arg("init")
        .output()
        .unwrap();
    assert!(init.status.success());
    let again = Command::new(env!("CARGO_BIN_EXE_ladr"))
        .current_dir(fresh.path())
        .arg("init")
        .output()
        .unwrap();
    assert_eq!(again.status.code(), Some(2));
}

/// The same gate answer every run (issue 32): harnesses checked one at a time or two at
/// once give the same document, times aside.
#[test]
fn the_gate_gives_the_same_document_with_one_job_and_with_two() {
    fn untimed(mut v: Value) -> Value {
        fn strip(v: &mut Value) {
            match v {
                Value::Object(m) => {
                    for timed in ["stats", "tool", "wall_s", "time_limit_s"] {
                        m.remove(timed);
                    }
                    m.values_mut().for_each(strip);
                }
                Value::Array(a) => a.iter_mut().for_each(strip),
                _ => {}
            }
        }
        strip(&mut v);
        v
    }
    let r = Repo::new();
    let (code, one) = r.check(&["--jobs", "1", "--no-cache"]);
    assert_eq!(code, 1, "{one}");
    let (_, two) = r.check(&["--jobs", "2", "--no-cache"]);
    assert_eq!(untimed(one), untimed(two));
}

/// One finding per bug in the gate (issue 32): the racing pairs of one unlocked statement
/// are one new race, shown once with the others folded under it, and counted once.
#[test]
fn the_gate_counts_one_race_per_cause() {
    let r = Repo::new();
    std::fs::write(r.path("peak.c"), include_str!("../e2e/one_cause_racy.c")).unwrap();
    r.append(
        "ladr.toml",
        "\n[[harness]]\nname = \"peak\"\nfiles = [\"peak.c\"]\n",
    );
    let (code, v) = r.check(&["peak"]);
    assert_eq!(code, 1, "{v}");
    let races = harness(&v, "peak")["outcome"]["races"].as_array().unwrap();
    assert!(races.len() >= 2, "{v}");
    assert!(races.iter().all(|r| r["group"] == 1), "{v}");
    let (code, text, _) = r.ladr(&["check", "peak"]);
    assert_eq!(code, 1, "{text}");
    let pairs = races.len();
    assert_eq!(text.matches("error[data-race]").count(), 1, "{text}");
    assert!(
        text.contains(&format!("new race ({pairs} racing pairs of one cause)")),
        "{text}"
    );
    assert!(
        text.contains(&format!(
            "race gate: FAILED, 1 new race ({pairs} racing pairs)"
        )),
        "{text}"
    );
}

/// An in-source suppression without a reason is refused by the gate as `[[allow]]` without
/// one is: exit 2 at the comment's place, nothing checked; with `--format json` the gate's
/// document says so.
#[test]
fn an_in_source_allow_needs_a_reason() {
    let r = Repo::new();
    r.edit(
        "src/mq.c",
        "  return q->count;",
        "  // ladr: allow(data-race)\n  return q->count;",
    );
    let (code, out, err) = r.ladr(&["check", "--format", "json"]);
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("src/mq.c:27:6") && err.contains("without a reason"),
        "{err}"
    );
    let v: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["status"], 2, "{v}");
    assert_eq!(v["error"]["location"]["line"], 27, "{v}");
}

/// The gate's command line: bounds, time limit and deepening override `ladr.toml`; `--list`
/// prints what would run and checks nothing; a second run reads unchanged harnesses from
/// the result cache (an edit to an included header, other options or `--no-cache` check
/// again); `--changed-since REV` keeps the harnesses that read a file changed since REV.
#[test]
fn the_gate_command_line_overrides_lists_caches_and_selects_changes() {
    let r = Repo::new();
    let (code, v) = r.check(&["--rounds", "3", "--unwind", "1", "--timeout", "90", "stats"]);
    assert_eq!(code, 0, "{v}");
    let o = &harness(&v, "stats")["outcome"];
    assert_eq!(
        (
            o["bounds"]["rounds"].as_u64(),
            o["bounds"]["unwind"].as_u64()
        ),
        (Some(3), Some(1)),
        "{v}"
    );
    assert_eq!(o["time_limit_s"], 90.0, "{v}");
    let (code, out, err) = r.ladr(&["check", "--list", "--rounds", "4"]);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains("queue: rounds 4, unwind 2, 120 s, no deepening, not cached"),
        "{out}"
    );
    assert!(out.contains("  tests/stats_harness.c"), "{out}");
    // The cache: the first run checks, the second reads, the table says so.
    std::fs::remove_dir_all(r.path(".xdg-cache")).ok();
    let (_, first) = r.check(&[]);
    let (code, second) = r.check(&[]);
    assert_eq!(code, 1);
    for name in ["queue", "stats"] {
        assert_eq!(harness(&first, name)["cached"], false, "{first}");
        assert_eq!(harness(&second, name)["cached"], true, "{second}");
    }
    assert_eq!(race_lines(&first, "queue"), race_lines(&second, "queue"));
    let (_, out, _) = r.ladr(&["check", "--list"]);
    assert!(
        out.contains("stats: rounds 2, unwind 2, 120 s, no deepening, cached"),
        "{out}"
    );
    let (_, text, _) = r.ladr(&["check"]);
    assert!(
        text.contains("(cached)") && text.contains("race gate: FAILED"),
        "{text}"
    );
    let (_, again) = r.check(&["--no-cache"]);
    assert_eq!(harness(&again, "queue")["cached"], false, "{again}");
    // Elsewhere, as CI keeps it: the same answers, read back from there.
    let (_, there) = r.check(&["--cache-dir", "kept"]);
    assert_eq!(harness(&there, "queue")["cached"], false, "{there}");
    let (_, back) = r.check(&["--cache-dir", "kept"]);
    assert_eq!(harness(&back, "queue")["cached"], true, "{back}");
    assert_eq!(race_lines(&there, "queue"), race_lines(&back, "queue"));
    let (_, other) = r.check(&["--unwind", "1"]);
    assert_eq!(harness(&other, "queue")["cached"], false, "{other}");
    r.append("include/mq.h", "\n/* edited */ extern int mq_edited;\n");
    let (_, edited) = r.check(&[]);
    assert_eq!(harness(&edited, "stats")["cached"], false, "{edited}");
    // --changed-since: a git repository of the copy.
    let git = |args: &[&str]| {
        let ok = Command::new("git")
            .current_dir(r.dir.path())
            .args(["-c", "user.email=t@t", "-c", "user.name=t"])
            .args(args)
            .output()
            .unwrap();
        assert!(ok.status.success(), "{args:?}: {ok:?}");
    };
    git(&["init", "-q"]);
    git(&["add", "-A"]);
    git(&["commit", "-qm", "base"]);
    let listed = |rev: &str| {
        let (code, out, err) = r.ladr(&["check", "--list", "--changed-since", rev]);
        assert_eq!(code, 0, "{err}");
        let mut names: Vec<String> = out
            .lines()
            .filter(|l| !l.starts_with(' ') && l.contains(": rounds"))
            .map(|l| l.split(':').next().unwrap().to_string())
            .collect();
        names.sort();
        names
    };
    assert!(listed("HEAD").is_empty());
    r.append("tests/stats_harness.c", "\nint stats_edited;\n");
    assert_eq!(listed("HEAD"), ["stats"]);
    // A header both include: both.
    r.append("include/mq.h", "\nextern int both_edited;\n");
    assert_eq!(listed("HEAD"), ["queue", "stats"]);
    // Committed changes count against an older revision.
    git(&["add", "-A"]);
    git(&["commit", "-qm", "second"]);
    assert_eq!(listed("HEAD~1"), ["queue", "stats"]);
    assert!(listed("HEAD").is_empty());
    for bad in ["-p", "HEAD;true", "nonesuch", "a..b"] {
        let (code, _, err) = r.ladr(&["check", "--list", &format!("--changed-since={bad}")]);
        assert_eq!(code, 2, "{bad}: {err}");
        assert!(err.contains("--changed-since"), "{bad}: {err}");
    }
}

/// `check --html`'s index is a styled page in the race pages' manner: the gate's result, a
/// verdict table of the harnesses, the races linking their pages; Markdown code spans of
/// the reports are `<code>` in every page, never literal backquotes.
#[test]
fn the_html_index_is_a_verdict_table_and_code_spans_are_code() {
    let r = Repo::new();
    let (code, _, err) = r.ladr(&["check", "--html", "pages"]);
    assert_eq!(code, 1, "{err}");
    let index = std::fs::read_to_string(r.path("pages/index.html")).unwrap();
    for want in [
        "<style>",
        "<table class=\"index\" id=\"harnesses\">",
        "<tr data-harness=\"queue\"><td>queue</td><td class=\"v v-race\">race</td><td>2</td><td>2</td>",
        "<tr data-harness=\"stats\"><td>stats</td><td class=\"v v-no-race\">no-race</td>",
        "<table class=\"index\" id=\"races\">",
        "<a href=\"queue-1.html\">race on <code>",
        "<td class=\"s s-new\">new</td>",
        "race gate: FAILED, 2 new races",
    ] {
        assert!(index.contains(want), "`{want}` not in\n{index}");
    }
    assert!(!index.contains('`'), "{index}");
    let page = std::fs::read_to_string(r.path("pages/queue-1.html")).unwrap();
    assert!(page.contains("thread 1 (<code>producer</code>"), "{page}");
    assert!(!page.contains('`'), "{page}");
}
