//! The command line on bad and unusual input, run as a user would: every case asserts the
//! exit status and the message, that nothing panicked or aborted, that no temporary
//! directory and no process (CBMC) is left behind, and that `--format json|sarif` printed a
//! valid document on stdout whatever happened.

use super::report_formats::check_sarif;
use serde_json::Value;
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// A run of the `ladr` binary with its own temporary directory (`TMPDIR`) and working
/// directory, both fresh.
pub(super) struct Run {
    pub(super) code: i32,
    pub(super) stdout: String,
    pub(super) stderr: String,
}

pub(super) struct Sandbox {
    dir: tempfile::TempDir,
    pub(super) tmp: PathBuf,
}

impl Sandbox {
    pub(super) fn new() -> Sandbox {
        let dir = tempfile::tempdir().unwrap();
        let tmp = dir.path().join("tmp");
        std::fs::create_dir(&tmp).unwrap();
        Sandbox { dir, tmp }
    }

    pub(super) fn path(&self, name: &str) -> PathBuf {
        self.dir.path().join(name)
    }

    pub(super) fn write(&self, name: &str, text: &str) -> PathBuf {
        let p = self.path(name);
        std::fs::write(&p, text).unwrap();
        p
    }

    pub(super) fn command(&self, args: &[&str]) -> Command {
        let mut c = Command::new(env!("CARGO_BIN_EXE_ladr"));
        c.current_dir(self.dir.path())
            .env("TMPDIR", &self.tmp)
            .env("XDG_CACHE_HOME", self.dir.path().join(".xdg-cache"))
            .args(args)
            .stdin(Stdio::null());
        // These tests check at the bounds they give: no deepening unless a test asks.
        let subcommand = ["eval", "check", "init", "swarm"].contains(args.first().unwrap_or(&""));
        let deepens = args
            .iter()
            .any(|a| ["--deepen", "--svcomp", "--no-deepen"].contains(a));
        if !subcommand && !deepens {
            c.arg("--no-deepen");
        }
        c
    }

    /// Runs ladr and checks what every run must satisfy.
    pub(super) fn run(&self, args: &[&str]) -> Run {
        let out = self.command(args).output().expect("run ladr");
        let run = Run {
            code: out.status.code().unwrap_or(-1),
            stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
            stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
        };
        let all = format!("{}{}", run.stdout, run.stderr);
        assert!(
            [0, 1, 2, 3].contains(&run.code),
            "{args:?}: exit {} (killed or aborted?)\n{all}",
            run.code
        );
        for bad in ["panicked", "overflowed its stack", "RUST_BACKTRACE"] {
            assert!(!all.contains(bad), "{args:?}: {bad}\n{all}");
        }
        self.nothing_left(args);
        if let Some(i) = args.iter().position(|a| *a == "--format") {
            document(args[i + 1], &run.stdout, args);
        }
        run
    }

    /// No temporary directory and no process of this run is left.
    pub(super) fn nothing_left(&self, what: &[&str]) {
        let left: Vec<_> = std::fs::read_dir(&self.tmp).unwrap().flatten().collect();
        assert!(left.is_empty(), "{what:?}: left in TMPDIR: {left:?}");
        // A killed CBMC takes a moment to be torn down (it may hold gigabytes; longer on a
        // loaded machine).
        let mine = self.tmp.to_string_lossy().into_owned();
        let t0 = Instant::now();
        let mut alive = processes_mentioning(&mine);
        while !alive.is_empty() && t0.elapsed() < Duration::from_secs(30) {
            std::thread::sleep(Duration::from_millis(50));
            alive = processes_mentioning(&mine);
        }
        assert!(alive.is_empty(), "{what:?}: still running: {alive:?}");
    }
}

/// Command lines of running processes that mention `text` (CBMC is given `TMPDIR/…/seq.i`).
pub(super) fn processes_mentioning(text: &str) -> Vec<String> {
    let mut out = vec![];
    for e in std::fs::read_dir("/proc").unwrap().flatten() {
        if let Ok(cmd) = std::fs::read(e.path().join("cmdline")) {
            let cmd = String::from_utf8_lossy(&cmd).replace('\0', " ");
            if cmd.contains(text) {
                out.push(cmd);
            }
        }
    }
    out
}

/// The document on stdout is valid in the format asked for.
fn document(format: &str, stdout: &str, args: &[&str]) {
    if format == "text" {
        return;
    }
    let v: Value = serde_json::from_str(stdout)
        .unwrap_or_else(|e| panic!("{args:?}: stdout is not {format}: {e}\n{stdout}"));
    match format {
        "json" => {
            assert_eq!(v["schema"], 2, "{v}");
            let verdict = v["verdict"].as_str().expect("verdict");
            assert!(
                ["race", "no-race", "unknown", "error"].contains(&verdict),
                "{v}"
            );
            assert!(
                v["input"].is_string() && v["bounds"]["rounds"].is_u64(),
                "{v}"
            );
            assert!(v["tool"]["name"] == "ladr", "{v}");
            if verdict == "error" {
                assert!(v["reason"].is_string() && v["error"]["message"].is_string());
                assert!(["usage", "syntax", "unsupported"]
                    .contains(&v["error"]["kind"].as_str().unwrap()));
            }
        }
        "sarif" => {
            check_sarif(&v);
        }
        f => panic!("unknown format {f}"),
    }
}

pub(super) const RACY: &str = "#include <pthread.h>
int x;
void *w(void *a) { x = 1; return 0; }
int main(void) {
  pthread_t t;
  pthread_create(&t, 0, w, 0);
  x = 2;
  return 0;
}
";

/// A thread filling a large array: with `--unwind 1000` CBMC works on it for minutes.
pub(super) const FILL: &str = "#include <pthread.h>\nint a[20000]; int n;\n\
     void *t(void *p) { for (int i = 0; i < n; i++) a[i] = i; return 0; }\n\
     int main(void) { pthread_t h; n = 20000; pthread_create(&h, 0, t, 0); a[0] = 1; return 0; }\n";

#[test]
fn bad_values_are_usage_errors_with_a_helpful_message() {
    let s = Sandbox::new();
    let f = s.write("racy.c", RACY);
    let f = f.to_str().unwrap();
    for (args, says) in [
        (vec!["--rounds", "0"], "0 is not in 1..=100"),
        (vec!["--rounds", "4294967295"], "is not in 1..=100"),
        (vec!["--rounds", "-1"], "-1 is not in 1..=100"),
        (vec!["--unwind", "10000"], "is not in 0..=1000"),
        (vec!["--timeout", "-5"], "is not a time limit"),
        (vec!["--timeout", "inf"], "is not a time limit"),
        (vec!["--timeout", "NaN"], "is not a time limit"),
        (vec!["--timeout", "1e300"], "is not a time limit"),
        (vec!["--timeout", "soon"], "is not a number of seconds"),
    ] {
        let mut all = vec![f];
        all.extend(&args);
        let r = s.run(&all);
        assert_eq!(r.code, 2, "{args:?}: {}", r.stderr);
        assert!(r.stderr.contains(says), "{args:?}: {}", r.stderr);
        assert!(!r.stderr.contains("-- -1"), "{}", r.stderr);
    }
}

#[test]
fn help_is_grouped_with_placeholders() {
    let s = Sandbox::new();
    let r = s.run(&["--help"]);
    assert_eq!(r.code, 0);
    for want in [
        "Bounds:",
        "Input:",
        "Output:",
        "--rounds <K>",
        "--unwind <U>",
        "--max-unwind <N>",
        "--timeout <SECONDS>",
        "--keep-files <DIR>",
        "--witness <FILE>",
        "--cbmc <PATH>",
        "--steps",
        "--max-races <N>",
        "--all",
        "--quiet",
        "130/143",
    ] {
        assert!(
            r.stdout.contains(want),
            "`{want}` missing from --help:\n{}",
            r.stdout
        );
    }
    for gone in ["<TIMEOUT>", "<KEEP_FILES>", "<MAX_UNWIND>", "--check-ir"] {
        assert!(!r.stdout.contains(gone), "`{gone}` in --help");
    }
}

#[test]
fn any_file_name_is_c_and_cpp_is_refused() {
    let s = Sandbox::new();
    s.write("prog.txt", RACY);
    s.write("noext", RACY);
    for name in ["prog.txt", "noext"] {
        let r = s.run(&[name, "--quiet"]);
        assert_eq!(r.code, 1, "{name}: {}{}", r.stdout, r.stderr);
        assert!(r.stdout.contains("data race on `x`"), "{}", r.stdout);
    }
    s.write("a.cpp", "int main() { return 0; }\n");
    let r = s.run(&["a.cpp"]);
    assert_eq!(r.code, 2);
    assert!(r.stderr.contains("C++ is not supported"), "{}", r.stderr);
    s.write(
        "ns.c",
        "namespace n { int x; }\nint main(void) { return 0; }\n",
    );
    let r = s.run(&["ns.c", "--format", "json"]);
    assert_eq!(r.code, 2);
    assert!(r.stderr.contains("C++ is not supported"), "{}", r.stderr);
    assert!(r.stderr.contains("ns.c:1:1"), "{}", r.stderr);
}

#[test]
fn syntax_errors_show_the_line_and_every_expected_token() {
    let s = Sandbox::new();
    s.write(
        "semi.c",
        "int x;\nvoid f(void) {\n  x = 1\n  x = 2;\n}\nint main(void) { f(); return 0; }\n",
    );
    for format in ["text", "json", "sarif"] {
        let r = s.run(&["semi.c", "--format", format]);
        assert_eq!(r.code, 2, "{}", r.stderr);
        assert!(r.stderr.contains("syntax error at `x`"), "{}", r.stderr);
        // The source line, with the place marked.
        assert!(r.stderr.contains("4 │   x = 2;"), "{}", r.stderr);
        assert!(
            r.stderr.contains("`;`"),
            "the fix is among the expected: {}",
            r.stderr
        );
        if format == "json" {
            let v: Value = serde_json::from_str(&r.stdout).unwrap();
            assert_eq!(v["error"]["kind"], "syntax");
            assert_eq!(v["error"]["location"]["line"], 4);
        }
        if format == "sarif" {
            let v: Value = serde_json::from_str(&r.stdout).unwrap();
            let inv = &v["runs"][0]["invocations"][0];
            assert_eq!(inv["executionSuccessful"], false);
            let n = &inv["toolExecutionNotifications"][0];
            assert_eq!(
                n["locations"][0]["physicalLocation"]["region"]["startLine"],
                4
            );
        }
    }
}

#[test]
fn every_outcome_is_a_document_in_the_format_asked() {
    let s = Sandbox::new();
    s.write("racy.c", RACY);
    s.write(
        "unsupported.c",
        "#include <pthread.h>\n#include <unistd.h>\nint x;\nvoid *w(void *a) { fork(); return 0; }\n\
         int main(void) { pthread_t t; pthread_create(&t, 0, w, 0); return 0; }\n",
    );
    for format in ["json", "sarif"] {
        assert_eq!(s.run(&["racy.c", "--format", format]).code, 1);
        // Input ladr cannot handle, a missing file, two `main`s, a bad --keep-files place,
        // an unknown CBMC: all exit 2 (3 for CBMC) with a document on stdout.
        assert_eq!(s.run(&["unsupported.c", "--format", format]).code, 2);
        assert_eq!(s.run(&["missing.c", "--format", format]).code, 2);
        let r = s.run(&["racy.c", "racy.c", "--format", format]);
        assert_eq!(r.code, 2);
        assert!(r.stderr.contains("`main` is defined in"), "{}", r.stderr);
        let r = s.run(&["racy.c", "--keep-files", "/proc/ladr", "--format", format]);
        assert_eq!(r.code, 2);
        assert!(
            r.stderr.contains("--keep-files: cannot write"),
            "{}",
            r.stderr
        );
        let r = s.run(&["racy.c", "--cbmc", "/nonexistent/cbmc", "--format", format]);
        assert_eq!(r.code, 3, "{}", r.stderr);
    }
}

#[test]
fn keep_files_keeps_the_program_and_cbmc_output() {
    let s = Sandbox::new();
    s.write("racy.c", RACY);
    let r = s.run(&["racy.c", "--keep-files", "kept/here"]);
    assert_eq!(r.code, 1);
    for f in ["seq.i", "cbmc.json", "cbmc.stderr"] {
        assert!(s.path("kept/here").join(f).is_file(), "{f} not kept");
    }
}

#[test]
fn deep_programs_do_not_overflow_the_stack() {
    let s = Sandbox::new();
    let terms = vec!["x"; 10_000].join(" + ");
    s.write(
        "deep.c",
        &format!("int x, y;\nint main(void) {{ y = {terms}; return 0; }}\n"),
    );
    let r = s.run(&["deep.c", "--emit", "seq"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(r.stdout.contains("y = "), "{}", r.stdout);
}

#[test]
fn the_time_limit_covers_the_whole_check() {
    let s = Sandbox::new();
    s.write("fill.c", FILL);
    let t0 = Instant::now();
    let r = s.run(&[
        "fill.c",
        "--unwind",
        "1000",
        "--timeout",
        "3",
        "--format",
        "json",
    ]);
    let took = t0.elapsed();
    assert_eq!(r.code, 3, "{}{}", r.stdout, r.stderr);
    let v: Value = serde_json::from_str(&r.stdout).unwrap();
    assert_eq!(v["verdict"], "unknown");
    assert_eq!(v["time_limit_s"], 3.0);
    // The limit, plus the time to stop CBMC and start the process: the bound is loose (the
    // check runs for many minutes when the limit does not stop it), so that a loaded
    // machine does not fail it.
    assert!(took < Duration::from_secs(60), "took {took:?}");
}

#[test]
fn sigint_and_sigterm_stop_cbmc_and_remove_the_temporary_directory() {
    let s = Sandbox::new();
    s.write("fill.c", FILL);
    for (signal, code) in [("-INT", 130), ("-TERM", 143)] {
        let mut child = s
            .command(&["fill.c", "--unwind", "1000", "--timeout", "120"])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        // Wait until CBMC runs on the sequential program in TMPDIR.
        let mine = s.tmp.to_string_lossy().into_owned();
        let t0 = Instant::now();
        while processes_mentioning(&format!("{mine}/")).is_empty() {
            assert!(t0.elapsed() < Duration::from_secs(60), "CBMC never started");
            std::thread::sleep(Duration::from_millis(50));
        }
        let status = Command::new("kill")
            .args([signal, &child.id().to_string()])
            .status()
            .unwrap();
        assert!(status.success());
        let got = child.wait().unwrap();
        assert_eq!(got.code(), Some(code), "{signal}");
        s.nothing_left(&[signal]);
    }
}

/// Constructs ladr cannot check yet are located "unsupported" errors, never "no race".
#[test]
fn signal_handlers_setjmp_openmp_c11_threads_and_fork_are_located_errors() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/unsupported");
    let s = Sandbox::new();
    for (file, line, says) in [
        ("openmp.c", 4, "OpenMP"),
        // Issue 27 item 8: guarded by `#ifdef _OPENMP`, the pragma had disappeared.
        ("openmp_guarded.c", 5, "OpenMP"),
        ("signal_handler.c", 10, "a signal handler"),
        // `setjmp`/`longjmp` within a thread's inlined code are jumps (issue 27); a
        // `longjmp` to another thread's `setjmp` is not followed.
        (
            "longjmp_other_thread.c",
            4,
            "a `longjmp` to a `setjmp` outside the function it runs in",
        ),
        ("undeclared_macro.c", 3, "is not declared"),
        // A rwlock function on a mutex (issue 16): not two unrelated lock states.
        (
            "rwlock_on_mutex.c",
            5,
            "`pthread_rwlock_rdlock` on `m`, a `pthread_mutex_t`",
        ),
        ("socket_connect.c", 7, "a socket connection"),
        // Issue 27 items 4 and 5: C11 threads were ignored ("creates no thread"), and a
        // child process's write raced with the parent's thread. C11 threads are modelled
        // now; one reached through a function pointer is not mapped to POSIX's.
        (
            "c11_threads.c",
            10,
            "the C11 <threads.h> function `thrd_create`",
        ),
        ("fork.c", 11, "a child process has its own copy of memory"),
        // Deferred cancellation is modelled, asynchronous cancellation is not.
        (
            "async_cancel.c",
            5,
            "asynchronous cancellation (`pthread_setcanceltype`)",
        ),
        // Issue 27 item 10: a zero-width bit-field whose place ladr does not compute (one
        // after a member of a typedef'd struct type; `gnu::zero_width_*` checks the ones it
        // does).
        (
            "zero_width_bitfield.c",
            3,
            "a zero-width bit-field after other members",
        ),
        // A matrix with rows of a variable length is indexed by hand (`threads/vla.rs`):
        // row arithmetic on it would change its layout silently.
        (
            "vla_row_arithmetic.c",
            7,
            "whose rows have a variable length",
        ),
    ] {
        let path = root.join(file);
        let r = s.run(&[path.to_str().unwrap(), "--format", "json"]);
        assert_eq!(r.code, 2, "{file}: {}", r.stderr);
        let v: Value = serde_json::from_str(&r.stdout).unwrap();
        assert_eq!(v["verdict"], "error");
        let kind = if file == "undeclared_macro.c" {
            "syntax"
        } else {
            "unsupported"
        };
        assert_eq!(v["error"]["kind"], kind);
        assert_eq!(v["error"]["location"]["line"], line, "{file}: {v}");
        assert!(r.stderr.contains(says), "{file}: {}", r.stderr);
    }
}

/// `--all` reports every race and `--max-races N` at most N, each with its interleaving, in
/// every format (exit status 1); SV-COMP mode and a plain `ladr FILE` report one.
#[test]
fn all_races_through_the_command_line() {
    let s = Sandbox::new();
    s.write("two.c", include_str!("../e2e/two_races_racy.c"));
    let r = s.run(&["two.c", "--all", "--color", "never"]);
    assert_eq!(r.code, 1, "{}{}", r.stdout, r.stderr);
    for want in [
        "data race on `x`",
        "data race on `y`",
        "(race 1 of 2)",
        "(race 2 of 2)",
        "2 races found: no other race within 2 rounds and 2 unwindings",
    ] {
        assert!(r.stdout.contains(want), "`{want}` missing:\n{}", r.stdout);
    }
    assert_eq!(r.stdout.matches("interleaving:").count(), 2, "{}", r.stdout);
    let json = |args: &[&str]| -> Value {
        let r = s.run(args);
        assert_eq!(r.code, 1, "{args:?}: {}{}", r.stdout, r.stderr);
        serde_json::from_str(&r.stdout).expect("JSON on stdout")
    };
    let lines = |v: &Value| -> Vec<Vec<u64>> {
        let mut out = super::races_lines(v);
        out.sort();
        out
    };
    let all = json(&["two.c", "--all", "--format", "json"]);
    assert_eq!(lines(&all), [[5, 10], [6, 14]], "{all}");
    assert_eq!(all["search"]["ended"], "all-found", "{all}");
    let two = json(&["two.c", "--max-races", "2", "--format", "json"]);
    assert_eq!(lines(&two), [[5, 10], [6, 14]], "{two}");
    assert_eq!(two["search"]["ended"], "max-races", "{two}");
    let one = json(&["two.c", "--format", "json"]);
    assert_eq!(one["races"].as_array().unwrap().len(), 1, "{one}");
    assert_eq!(one["search"]["ended"], "max-races", "{one}");
    let r = s.run(&["two.c", "--all", "--format", "sarif"]);
    assert_eq!(r.code, 1);
    let v: Value = serde_json::from_str(&r.stdout).expect("SARIF on stdout");
    let run = check_sarif(&v);
    assert_eq!(run["results"].as_array().unwrap().len(), 2, "{v}");
    // Bad limits are usage errors.
    for bad in [
        &["two.c", "--max-races", "0"][..],
        &["two.c", "--all", "--max-races", "2"],
    ] {
        let r = s.run(bad);
        assert_eq!(r.code, 2, "{bad:?}: {}{}", r.stdout, r.stderr);
    }
}

/// `ladr FILE` honours in-source `ladr: allow(data-race)` comments as `ladr check` does: the
/// race is reported as suppressed (text, JSON, SARIF) and the exit status is 0 when every
/// race is; a comment without a reason is a located usage error.
#[test]
fn in_source_allows_suppress_races_and_need_a_reason() {
    let s = Sandbox::new();
    let allowed = RACY.replace(
        "x = 1; return 0; }",
        "x = 1; return 0; } // ladr: allow(data-race) a flag, any value will do",
    );
    s.write("allowed.c", &allowed);
    let r = s.run(&["allowed.c"]);
    assert_eq!(r.code, 0, "{}{}", r.stdout, r.stderr);
    assert!(
        r.stdout.contains("(suppressed)")
            && r.stdout
                .contains("in source at allowed.c:3: a flag, any value will do"),
        "{}",
        r.stdout
    );
    let r = s.run(&["allowed.c", "--format", "json"]);
    assert_eq!(r.code, 0);
    let v: Value = serde_json::from_str(&r.stdout).unwrap();
    assert_eq!(v["verdict"], "race", "{v}");
    let sup = &v["races"][0]["suppression"];
    assert_eq!(sup["kind"], "inSource", "{v}");
    assert_eq!(sup["at"], "allowed.c:3", "{v}");
    // (`run` reads JSON documents only.)
    let out = s
        .command(&["allowed.c", "--format", "html"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let page = String::from_utf8_lossy(&out.stdout);
    assert!(
        page.contains("<p class=\"suppressed\">Suppressed (in source at allowed.c:3): a flag"),
        "{page}"
    );
    let r = s.run(&["allowed.c", "--format", "sarif"]);
    let v: Value = serde_json::from_str(&r.stdout).unwrap();
    let sup = &v["runs"][0]["results"][0]["suppressions"][0];
    assert_eq!(sup["kind"], "inSource", "{v}");
    assert_eq!(sup["justification"], "a flag, any value will do");
    // Without the comment, the same program fails.
    s.write("racy.c", RACY);
    assert_eq!(s.run(&["racy.c"]).code, 1);
    // No reason: refused before anything is checked, at the comment's place.
    s.write(
        "bare.c",
        &RACY.replace("  x = 2;", "  x = 2; /* ladr: allow(data-race) */"),
    );
    let r = s.run(&["bare.c", "--format", "json"]);
    assert_eq!(r.code, 2, "{}", r.stderr);
    let v: Value = serde_json::from_str(&r.stdout).unwrap();
    assert_eq!(v["error"]["kind"], "usage", "{v}");
    assert_eq!(v["error"]["location"]["line"], 7, "{v}");
    assert!(r.stderr.contains("bare.c:7:"), "{}", r.stderr);
    assert!(r.stderr.contains("without a reason"), "{}", r.stderr);
}

/// With `--format json|sarif` read, a command line clap refuses is still a document on
/// stdout (exit 2), for `ladr FILE` and for `ladr check`; so is a run stopped by a signal.
#[test]
fn usage_errors_and_interruptions_are_documents() {
    let s = Sandbox::new();
    s.write("racy.c", RACY);
    for format in ["json", "sarif"] {
        for args in [
            vec!["racy.c", "--format", format, "--rounds", "0"],
            vec!["racy.c", "--format", format, "--no-such-option"],
            vec!["--format", format, "racy.c", "--color", "purple"],
        ] {
            let r = s.run(&args);
            assert_eq!(r.code, 2, "{args:?}: {}", r.stderr);
            assert!(r.stderr.contains("error:"), "{}", r.stderr);
            if format == "json" {
                let v: Value = serde_json::from_str(&r.stdout).unwrap();
                assert_eq!(v["verdict"], "error");
                assert_eq!(v["error"]["kind"], "usage");
                assert_eq!(v["input"], "racy.c", "{v}");
            }
        }
        // The gate: a clap error, and a config that does not exist.
        for args in [
            vec!["check", "--format", format, "--rounds", "x"],
            vec!["check", "--format", format, "--config", "missing.toml"],
        ] {
            // (`run` knows `ladr FILE`'s document only.)
            let out = s.command(&args).output().unwrap();
            assert_eq!(out.status.code(), Some(2), "{args:?}");
            let v: Value = serde_json::from_slice(&out.stdout)
                .unwrap_or_else(|e| panic!("{args:?}: {e}: {out:?}"));
            if format == "json" {
                assert_eq!(v["status"], 2, "{v}");
                assert_eq!(v["error"]["kind"], "usage", "{v}");
                assert_eq!(v["harnesses"], serde_json::json!([]), "{v}");
            } else {
                check_sarif(&v);
            }
        }
    }
    // Interrupted: `unknown`, an error of kind `interrupted`, exit 130.
    s.write("fill.c", FILL);
    let child = s
        .command(&[
            "fill.c",
            "--unwind",
            "1000",
            "--timeout",
            "120",
            "--format",
            "json",
        ])
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mine = s.tmp.to_string_lossy().into_owned();
    let t0 = Instant::now();
    while processes_mentioning(&format!("{mine}/")).is_empty() {
        assert!(t0.elapsed() < Duration::from_secs(60), "CBMC never started");
        std::thread::sleep(Duration::from_millis(50));
    }
    let killed = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(killed.success());
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(130));
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["verdict"], "unknown", "{v}");
    assert_eq!(v["error"]["kind"], "interrupted", "{v}");
    s.nothing_left(&["interrupted"]);
}

/// `ladr` alone: the short usage names the subcommands too.
#[test]
fn the_short_usage_names_the_subcommands() {
    let out = Command::new(env!("CARGO_BIN_EXE_ladr")).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    for want in [
        "ladr [OPTIONS] <FILE>...",
        "ladr check",
        "ladr init",
        "ladr eval",
        "ladr swarm",
    ] {
        assert!(err.contains(want), "`{want}` not in:\n{err}");
    }
}

/// Compiler flags pasted after the file (`-std=c99 -O2 -Wall -g -pthread …`) are accepted:
/// `-std=` reaches the preprocessor (the race below exists only before C11), `-I`/`-D` keep
/// working, the flags that do not change the program are ignored with a note, and an
/// unknown standard or `-m32` is a usage error naming it.
#[test]
fn pasted_compiler_flags_are_accepted_and_std_reaches_the_preprocessor() {
    let sb = Sandbox::new();
    std::fs::create_dir(sb.path("inc")).unwrap();
    sb.write("inc/value.h", "#define VALUE 2\n");
    sb.write(
        "std.c",
        "#include <pthread.h>\n#include \"value.h\"\nint x;\n\
         void *t(void *a) {\n#if __STDC_VERSION__ < 201112L && defined(RACE)\n  x = 1;\n#endif\n  return 0;\n}\n\
         int main(void) {\n  pthread_t h;\n  pthread_create(&h, 0, t, 0);\n  x = VALUE;\n  pthread_join(h, 0);\n  return 0;\n}\n",
    );
    let flags = [
        "-O2",
        "-Wall",
        "-Wextra",
        "-g",
        "-pthread",
        "-fopenmp",
        "-m64",
        "-fPIC",
        "-fno-strict-aliasing",
        "-I",
        "inc",
        "-DRACE",
    ];
    let with = |std: &str| {
        let mut args = vec!["std.c", std];
        args.extend(flags);
        sb.run(&args)
    };
    let c99 = with("-std=c99");
    assert_eq!(c99.code, 1, "{}{}", c99.stdout, c99.stderr);
    assert!(
        c99.stderr
            .contains("ignoring compiler flags that do not change the program for ladr: -O2 -Wall -Wextra -g -fno-strict-aliasing"),
        "{}",
        c99.stderr
    );
    let c11 = with("-std=gnu11");
    assert_eq!(c11.code, 0, "{}{}", c11.stdout, c11.stderr);
    for (bad, says) in [
        ("-std=c++17", "`-std=c++17` is not a C standard ladr knows"),
        ("-m32", "write `--32`"),
    ] {
        let r = sb.run(&["std.c", bad, "--format", "json"]);
        assert_eq!(r.code, 2, "{bad}: {}{}", r.stdout, r.stderr);
        assert!(r.stderr.contains(says), "{bad}: {}", r.stderr);
        assert!(!r.stderr.contains("unexpected argument"), "{}", r.stderr);
    }
}

/// A preprocessed file keeps the data model it was preprocessed for: without --32/--64 its
/// own `size_t` decides (`unsigned int`: ILP32, SV-COMP's tasks; `unsigned long`: LP64).
/// Checked as LP64, an ILP32 file's `malloc` clashed with CBMC's library (goblint's
/// 09-regions_10-arraylist_rc: "conflicting function declarations", then no answer in 150 s).
#[test]
fn a_preprocessed_file_keeps_its_data_model() {
    let dir = tempfile::tempdir().unwrap();
    for (size_t, model) in [("unsigned int", "ILP32"), ("unsigned long", "LP64")] {
        let file = dir.path().join(format!("{model}.i"));
        std::fs::write(
            &file,
            format!(
                "typedef {size_t} size_t;\n\
                 extern void *malloc(size_t size);\n\
                 typedef unsigned long pthread_t;\n\
                 typedef union {{ char s[36]; long a; }} pthread_attr_t;\n\
                 extern int pthread_create(pthread_t *t, const pthread_attr_t *a, void *(*f)(void *), void *arg);\n\
                 extern int pthread_join(pthread_t t, void **r);\n\
                 int *cell;\n\
                 void *worker(void *arg) {{ *cell = *cell + 1; return 0; }}\n\
                 int main(void) {{\n\
                 \x20 pthread_t a, b;\n\
                 \x20 cell = malloc(sizeof(int));\n\
                 \x20 *cell = 0;\n\
                 \x20 pthread_create(&a, 0, worker, 0);\n\
                 \x20 pthread_create(&b, 0, worker, 0);\n\
                 \x20 pthread_join(a, 0);\n\
                 \x20 pthread_join(b, 0);\n\
                 \x20 return 0;\n\
                 }}\n"
            ),
        )
        .unwrap();
        let w = dir.path().join(format!("{model}.yml"));
        let (code, out, err) = crate::ladr(&[
            file.to_str().unwrap(),
            "--no-deepen",
            "--witness",
            w.to_str().unwrap(),
            "--witness-format",
            "yaml",
        ]);
        assert_eq!(code, 1, "{model}: {out}{err}");
        assert!(out.contains("line 8"), "{model}: {out}");
        let text = std::fs::read_to_string(&w).unwrap();
        assert!(text.contains(&format!("data_model: \"{model}\"")), "{text}");
    }
}
