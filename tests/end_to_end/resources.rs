//! Resources and signals (issue 28, items 12, 14, 15): inputs nested too deeply for the
//! parser, signals and a killed ladr, and a `--jobs` larger than the machine holds.

use super::cli::Sandbox;
use serde_json::Value;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// 200 000 nested parentheses or prefix minuses overflowed the stack (exit 134, no
/// document): now a located "too deeply nested" error, exit 2, in every format.
#[test]
fn deep_nesting_is_a_located_error_not_a_stack_overflow() {
    let s = Sandbox::new();
    let n = 200_000;
    s.write(
        "parens.c",
        &format!(
            "int y;\nint x = {}1{};\nint main(void) {{ return x; }}\n",
            "(".repeat(n),
            ")".repeat(n)
        ),
    );
    s.write(
        "minus.c",
        &format!(
            "int y;\nint main(void) {{\n  y = {}1;\n  return y;\n}}\n",
            "- ".repeat(n)
        ),
    );
    // The first character beyond 1000 levels (`main`'s brace is one of them).
    for (file, line, column) in [("parens.c", 2, 9 + 1000), ("minus.c", 3, 7 + 2 * 999)] {
        let r = s.run(&[file, "--format", "json"]);
        assert_eq!(r.code, 2, "{file}: {}", r.stderr);
        let v: Value = serde_json::from_str(&r.stdout).unwrap();
        assert_eq!(v["verdict"], "error", "{file}");
        assert!(
            v["error"]["message"]
                .as_str()
                .unwrap()
                .contains("too deeply nested"),
            "{file}: {v}"
        );
        assert_eq!(v["error"]["location"]["line"], line, "{file}: {v}");
        assert_eq!(v["error"]["location"]["column"], column, "{file}: {v}");
        let r = s.run(&[file]);
        assert_eq!(r.code, 2, "{file}: {}", r.stderr);
        assert!(r.stderr.contains("too deeply nested"), "{}", r.stderr);
    }
}

/// Process ids of running processes whose command line mentions `text` (CBMC is given
/// `TMPDIR/…/seq.i`); a dead process's (zombie's) command line is empty.
fn pids_mentioning(text: &str) -> Vec<u32> {
    let mut out = vec![];
    for e in std::fs::read_dir("/proc").unwrap().flatten() {
        let Some(pid) = e.file_name().to_str().and_then(|n| n.parse().ok()) else {
            continue;
        };
        if let Ok(cmd) = std::fs::read(e.path().join("cmdline")) {
            if String::from_utf8_lossy(&cmd).contains(text) {
                out.push(pid);
            }
        }
    }
    out
}

fn signal(signal: &str, pid: u32) {
    let status = Command::new("kill")
        .args([signal, &pid.to_string()])
        .status()
        .unwrap();
    assert!(status.success());
}

/// SIGHUP (the terminal or the CI runner's session went away) killed ladr outright,
/// leaving CBMC running and the temporary directory behind: now it is handled like
/// SIGTERM (exit 129, CBMC stopped, nothing left in TMPDIR).
#[test]
fn sighup_stops_cbmc_and_removes_the_temporary_directory() {
    let s = Sandbox::new();
    s.write("fill.c", super::cli::FILL);
    let mut ladr = s
        .command(&["fill.c", "--unwind", "1000", "--timeout", "300"])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    // Wait until CBMC runs on the sequential program in TMPDIR.
    let mine = format!("{}/", s.tmp.to_string_lossy());
    let t0 = Instant::now();
    while pids_mentioning(&mine).is_empty() {
        assert!(
            t0.elapsed() < Duration::from_secs(120),
            "CBMC never started"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    signal("-HUP", ladr.id());
    let got = ladr.wait().unwrap();
    assert_eq!(got.code(), Some(129), "{got:?}");
    s.nothing_left(&["-HUP"]);
}

/// After SIGKILL of ladr (or an OOM kill), CBMC kept running with parent pid 1 (until its
/// next write failed): now every CBMC dies with ladr (`PR_SET_PDEATHSIG`). The CBMC here
/// is a stand-in that writes nothing (`sleep`), so only its parent's death can end it.
#[test]
fn cbmc_dies_with_a_killed_ladr() {
    use std::os::unix::fs::PermissionsExt;
    let s = Sandbox::new();
    s.write("fill.c", super::cli::FILL);
    let fake = s.write("silent-cbmc", "#!/bin/sh\nexec sleep 300\n");
    std::fs::set_permissions(&fake, std::fs::Permissions::from_mode(0o755)).unwrap();
    let mut ladr = s
        .command(&[
            "fill.c",
            "--timeout",
            "300",
            "--cbmc",
            fake.to_str().unwrap(),
        ])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    // The stand-in: ladr's child running `sleep`.
    let child_of_ladr = |pid: &u32| {
        let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
        let ppid = stat
            .rsplit(')')
            .next()
            .and_then(|r| r.split_whitespace().nth(1));
        ppid == Some(&ladr.id().to_string())
    };
    let t0 = Instant::now();
    let cbmc = loop {
        if let Some(pid) = pids_mentioning("sleep\u{0}300")
            .into_iter()
            .find(child_of_ladr)
        {
            break pid;
        }
        assert!(
            t0.elapsed() < Duration::from_secs(120),
            "CBMC never started"
        );
        std::thread::sleep(Duration::from_millis(50));
    };
    signal("-KILL", ladr.id());
    ladr.wait().unwrap();
    let alive = || std::fs::read(format!("/proc/{cbmc}/cmdline")).is_ok_and(|c| !c.is_empty());
    // Polls until CBMC is gone; before the fix it slept on.
    let t0 = Instant::now();
    while alive() && t0.elapsed() < Duration::from_secs(60) {
        std::thread::sleep(Duration::from_millis(50));
    }
    let outlived = alive();
    if outlived {
        let _ = Command::new("kill")
            .args(["-KILL", &cbmc.to_string()])
            .status();
    }
    assert!(!outlived, "CBMC (pid {cbmc}) outlived ladr");
}

/// An explicit `--jobs 1024` ran that many CBMCs whatever the machine holds: it is capped
/// by the memory rule of the default (about 1 GiB per CBMC), with a one-line note on
/// stderr, and the document on stdout is unchanged.
#[test]
fn an_explicit_jobs_count_is_capped_by_memory_with_a_note() {
    let available_gib = std::fs::read_to_string("/proc/meminfo")
        .unwrap()
        .lines()
        .find_map(|l| l.strip_prefix("MemAvailable:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<u64>().ok())
        .unwrap()
        >> 20;
    // A machine with a terabyte free runs 1024 CBMCs: nothing to cap there.
    if available_gib >= 1000 {
        return;
    }
    let s = Sandbox::new();
    s.write("racy.c", super::cli::RACY);
    let r = s.run(&["racy.c", "--jobs", "1024", "--deepen", "--format", "json"]);
    assert_eq!(r.code, 1, "{}", r.stderr);
    let note: Vec<&str> = r.stderr.lines().filter(|l| l.contains("capped")).collect();
    assert_eq!(note.len(), 1, "{}", r.stderr);
    assert!(note[0].contains("--jobs 1024 capped to "), "{}", note[0]);
    assert!(note[0].contains("memory"), "{}", note[0]);
    let v: Value = serde_json::from_str(&r.stdout).unwrap();
    assert_eq!(v["verdict"], "race");
}

/// A program whose translation takes hundreds of MB: 20 000 statements in one thread.
fn large_program() -> String {
    let mut text = String::from("#include <pthread.h>\nint x; int a[100];\nvoid *t(void *p) {\n");
    for i in 0..20_000 {
        text.push_str(&format!("  a[{}] = a[{}] + x;\n", i % 100, (i + 1) % 100));
    }
    text.push_str(
        "  return 0;\n}\nint main(void) {\n  pthread_t h;\n  pthread_create(&h, 0, t, 0);\n  \
         x = 2;\n  pthread_join(h, 0);\n  return 0;\n}\n",
    );
    text
}

/// Item 11: ladr's translation grew without bound (8 GB in 60 s) and, under a limit,
/// aborted with no document. With `--memory MB` the check ends with a `resources` error
/// document (exit 3) in every format, and leaves no temporary directory behind.
#[test]
fn a_translation_over_the_memory_budget_ends_with_a_resources_document() {
    let s = Sandbox::new();
    s.write("large.c", &large_program());
    let r = s.run(&["large.c", "--memory", "64", "--format", "json"]);
    assert_eq!(r.code, 3, "{}", r.stderr);
    let v: Value = serde_json::from_str(&r.stdout).unwrap();
    assert_eq!(v["verdict"], "unknown", "{v}");
    assert_eq!(v["error"]["kind"], "resources", "{v}");
    let message = v["error"]["message"].as_str().unwrap();
    assert!(message.contains("memory budget of 64 MB"), "{message}");
    let r = s.run(&["large.c", "--memory", "64", "--format", "sarif"]);
    assert_eq!(r.code, 3, "{}", r.stderr);
    let sarif: Value = serde_json::from_str(&r.stdout).unwrap();
    assert!(sarif["runs"][0].is_object(), "{sarif}");
    let r = s.run(&["large.c", "--memory", "64"]);
    assert_eq!(r.code, 3, "{}", r.stderr);
    assert!(r.stderr.contains("--memory"), "{}", r.stderr);
    s.nothing_left(&["ladr-"]);
}

/// Item 11, CBMC's side: every CBMC run gets an address-space limit of its share of the
/// budget (`--memory` / jobs). A stand-in CBMC records the limit it was started with.
#[test]
fn cbmc_runs_under_their_share_of_the_memory_budget() {
    use std::os::unix::fs::PermissionsExt;
    let s = Sandbox::new();
    s.write("racy.c", super::cli::RACY);
    let record = s.path("limit.txt");
    let fake = s.write(
        "fake-cbmc",
        &format!(
            "#!/bin/sh\nulimit -v > '{}'\necho 'fake CBMC' >&2\nexit 6\n",
            record.display()
        ),
    );
    std::fs::set_permissions(&fake, std::fs::Permissions::from_mode(0o755)).unwrap();
    let fake = fake.display().to_string();
    let r = s.run(&["racy.c", "--cbmc", &fake, "--memory", "1000", "--jobs", "1"]);
    assert_eq!(r.code, 3, "{}", r.stderr);
    let kb: u64 = std::fs::read_to_string(&record)
        .unwrap_or_else(|e| panic!("the stand-in CBMC did not run: {e}; {}", r.stderr))
        .trim()
        .parse()
        .unwrap();
    assert_eq!(kb, 1000 * 1024, "the limit CBMC ran under, in KB");
}

/// Issue 27 item 10's second half: a CBMC crash repeats at every bound pair, and each
/// was run again (seven crashes in a row). Once two pairs crashed the same way, the
/// others are not started. A stand-in CBMC aborts with CBMC's invariant report.
#[test]
fn a_crash_repeated_at_two_bound_pairs_stops_the_deepening() {
    use std::os::unix::fs::PermissionsExt;
    let s = Sandbox::new();
    // A loop the unwinding cuts: every bound pair's program is its own (none takes an
    // earlier pair's answer as `same_as`), so each pair not stopped runs CBMC.
    s.write(
        "loop.c",
        "#include <pthread.h>\nint __VERIFIER_nondet_int(void);\nint n, x;\n\
         pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;\nvoid *t(void *p) {\n  \
         int k = __VERIFIER_nondet_int();\n  for (int i = 0; i < k; i++) {\n    \
         pthread_mutex_lock(&m);\n    n++;\n    pthread_mutex_unlock(&m);\n  }\n  \
         x = 1;\n  return 0;\n}\nint main(void) {\n  pthread_t a;\n  \
         pthread_create(&a, 0, t, 0);\n  x = 2;\n  pthread_join(a, 0);\n  return 0;\n}\n",
    );
    let fake = s.write(
        "fake-cbmc",
        "#!/bin/sh\necho 'Invariant check failed' >&2\necho 'File: arith_tools.cpp:414 \
         function: bvrep2integer' >&2\necho 'Condition: width >= 1' >&2\nkill -ABRT $$\n",
    );
    std::fs::set_permissions(&fake, std::fs::Permissions::from_mode(0o755)).unwrap();
    let fake = fake.display().to_string();
    let r = s.run(&[
        "loop.c",
        "--cbmc",
        &fake,
        "--deepen",
        "--jobs",
        "2",
        "--format",
        "json",
        "--no-prove",
    ]);
    assert_eq!(r.code, 3, "{}", r.stderr);
    let v: Value = serde_json::from_str(&r.stdout).unwrap();
    let steps = v["deepening"]["schedule"]
        .as_array()
        .unwrap_or_else(|| panic!("{v}"));
    assert!(steps.iter().all(|s| s.get("same_as").is_none()), "{v}");
    let ran = steps.iter().filter(|s| s["state"] != "not-started").count();
    assert!(ran <= 3, "{ran} bound pairs ran: {v}");
    assert!(steps.len() > 3, "{v}");
}

/// A "no race" whose vacuity query (does any execution within the bounds create a thread?)
/// gives no answer is no answer: SV-COMP mode took it for `true` when the deadline had
/// passed before the query could run (goblint's `28-race_reach_91`: no execution within
/// 10/9 got past `main`'s set-up loops). A stand-in CBMC runs the real one on the check
/// (its program has the race flags) and fails the vacuity query (which has none).
#[test]
fn a_no_race_of_unknown_vacuity_is_unknown() {
    use std::os::unix::fs::PermissionsExt;
    let s = Sandbox::new();
    s.write(
        "free.c",
        "#include <pthread.h>\nint x;\nvoid *t(void *a) { return a; }\nint main(void) {\n  \
         pthread_t h;\n  pthread_create(&h, 0, t, 0);\n  x = 1;\n  pthread_join(h, 0);\n  \
         return x;\n}\n",
    );
    let real = ladr_cbmc::locate(None).expect("CBMC (scripts/install-cbmc)");
    let fake = s.write(
        "fake-cbmc",
        &format!(
            "#!/bin/sh\nfor a in \"$@\"; do\n  if [ -f \"$a\" ] && ! grep -q __ladr_drd \"$a\"; \
             then echo 'no answer' >&2; exit 6; fi\ndone\nexec '{}' \"$@\"\n",
            real.display()
        ),
    );
    std::fs::set_permissions(&fake, std::fs::Permissions::from_mode(0o755)).unwrap();
    let fake = fake.display().to_string();
    let r = s.run(&["free.c", "--cbmc", &fake, "--no-prove", "--no-deepen"]);
    assert_eq!(r.code, 3, "{}{}", r.stdout, r.stderr);
    let all = format!("{}{}", r.stdout, r.stderr);
    assert!(all.contains("vacuity query gave no answer"), "{all}");
    // With the real CBMC the same check is a "no race".
    let r = s.run(&["free.c", "--no-prove", "--no-deepen"]);
    assert_eq!(r.code, 0, "{}{}", r.stdout, r.stderr);
}

/// The vacuity query of the first bound pair, asked as soon as that pair answered "no race",
/// holds for the deeper pairs (a thread created within U unwindings is created within
/// more): the answer's "no race" at the last pair needs no query of its own after it, when a
/// time limit often left none (capstone's fixed side was unknown at 3/2). A stand-in CBMC
/// fails every vacuity query once two checks ran, as if the time were up: the answer stays
/// "no race" at the deepest pair.
#[test]
fn the_first_pairs_vacuity_holds_for_the_deeper_pairs() {
    use std::os::unix::fs::PermissionsExt;
    let s = Sandbox::new();
    s.write(
        "free.c",
        "#include <pthread.h>\nint x;\nvoid *t(void *a) { for (int i = 0; i < x; i++) x--; \
         return a; }\nint main(void) {\n  pthread_t h;\n  x = 1;\n  \
         pthread_create(&h, 0, t, 0);\n  pthread_join(h, 0);\n  return x;\n}\n",
    );
    let real = ladr_cbmc::locate(None).expect("CBMC (scripts/install-cbmc)");
    let checks = s.path("checks");
    let fake = s.write(
        "fake-cbmc",
        &format!(
            "#!/bin/sh\nfor a in \"$@\"; do\n  [ -f \"$a\" ] || continue\n  \
             if grep -q __ladr_drd \"$a\"; then echo x >> '{c}'\n  \
             elif [ -f '{c}' ] && [ \"$(wc -l < '{c}')\" -ge 2 ]; then \
             echo 'no answer' >&2; exit 6; fi\ndone\nexec '{r}' \"$@\"\n",
            c = checks.display(),
            r = real.display()
        ),
    );
    std::fs::set_permissions(&fake, std::fs::Permissions::from_mode(0o755)).unwrap();
    let fake = fake.display().to_string();
    let args = [
        "free.c",
        "--no-prove",
        "--no-racefree",
        "--jobs",
        "1",
        "--timeout",
        "600",
    ];
    let r = s.run(
        &[
            &args[..],
            &["--cbmc", &fake, "--deepen", "--deepen-steps", "2"],
        ]
        .concat(),
    );
    assert_eq!(r.code, 0, "{}{}", r.stdout, r.stderr);
    assert!(
        r.stdout.contains("within 3 rounds and 3 unwindings"),
        "{}",
        r.stdout
    );
    let ran = std::fs::read_to_string(&checks).unwrap();
    assert_eq!(ran.lines().count(), 3, "three bound pairs checked");
}
