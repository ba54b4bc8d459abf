//! `--jobs`, `--swarm`, deepening by default, and `ladr swarm emit`/`collect` (issue 17).

use serde_json::Value;
use std::path::Path;
use std::process::Command;

/// The ladr binary on `args`, checking within the bounds (`--no-prove`: these tests are of
/// the bounded search, not of the static proof).
fn ladr(args: &[&str]) -> (i32, String, String) {
    let subcommand = ["eval", "check", "init", "swarm"].contains(args.first().unwrap_or(&""));
    let out = Command::new(env!("CARGO_BIN_EXE_ladr"))
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .args(args)
        .args((!subcommand).then_some("--no-prove"))
        .output()
        .expect("run ladr");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn json(args: &[&str]) -> (i32, Value) {
    let mut all = args.to_vec();
    all.extend(["--format", "json", "-q"]);
    let (code, out, err) = ladr(&all);
    let v = serde_json::from_str(&out).unwrap_or_else(|e| panic!("{e}: {out}\n{err}"));
    (code, v)
}

use super::race_lines as lines;

#[test]
fn default_deepening_finds_a_race_that_needs_three_rounds() {
    // At 2 rounds this program has no race; the default schedule reaches 3 rounds.
    let (code, v) = json(&["tests/e2e/three_rounds_racy.c", "--jobs", "1"]);
    assert_eq!(code, 1, "{v}");
    assert_eq!(v["bounds"]["rounds"], 3, "{v}");
    assert_eq!(lines(&v["races"][0]), [9, 17], "{v}");
    // One job runs the pairs in order: each answered (`done_s`) no earlier than the one
    // before it; the pairs after the race were not started and have no time.
    let schedule = v["deepening"]["schedule"].as_array().unwrap();
    let done: Vec<Option<f64>> = schedule.iter().map(|s| s["done_s"].as_f64()).collect();
    let ran = schedule
        .iter()
        .take_while(|s| s["state"] != "not-started")
        .count();
    assert!(done[..ran].iter().all(Option::is_some), "{v}");
    assert!(done[..ran].windows(2).all(|w| w[0] <= w[1]), "{v}");
    assert!(done[ran..].iter().all(Option::is_none), "{v}");
    let (code, v) = json(&["tests/e2e/three_rounds_racy.c", "--no-deepen"]);
    assert_eq!(code, 0, "{v}");
    assert_eq!(v["bounds"]["rounds"], 2, "{v}");
    assert_eq!(
        v["deepening"]["finished"],
        serde_json::json!([[2, 2]]),
        "{v}"
    );
}

#[test]
fn jobs_run_the_schedule_at_once_and_the_race_wins() {
    let (code, v) = json(&["tests/e2e/three_rounds_racy.c", "--jobs", "2"]);
    assert_eq!(code, 1, "{v}");
    assert_eq!(lines(&v["races"][0]), [9, 17], "{v}");
    let schedule = v["deepening"]["schedule"].as_array().unwrap();
    // The bounds of the answer are those of a bound pair that found the race.
    let raced: Vec<(u64, u64)> = schedule
        .iter()
        .filter(|s| s["state"] == "race")
        .map(|s| (s["rounds"].as_u64().unwrap(), s["unwind"].as_u64().unwrap()))
        .collect();
    let b = &v["bounds"];
    assert!(
        raced.contains(&(b["rounds"].as_u64().unwrap(), b["unwind"].as_u64().unwrap())),
        "{v}"
    );
    // 2 rounds cannot find it.
    assert!(schedule[0]["state"] != "race", "{v}");
}

#[test]
fn jobs_without_race_name_the_finished_prefix() {
    let (code, v) = json(&[
        "tests/e2e/global_joined_free.c",
        "--jobs",
        "2",
        "--deepen-steps",
        "2",
    ]);
    assert_eq!(code, 0, "{v}");
    let d = &v["deepening"];
    assert_eq!(d["prefix"], 3, "{v}");
    assert_eq!(d["finished"], serde_json::json!([[2, 2], [3, 2], [3, 3]]));
    assert_eq!(
        (&v["bounds"]["rounds"], &v["bounds"]["unwind"]),
        (&3.into(), &3.into())
    );
    let (code, out, _) = ladr(&[
        "tests/e2e/global_joined_free.c",
        "-j",
        "2",
        "--deepen-steps",
        "1",
        "-q",
    ]);
    assert_eq!(code, 0);
    assert!(
        out.contains("no race found within 3 rounds and 2 unwindings"),
        "{out}"
    );
    assert!(
        out.contains("bounds (rounds/unwindings): 2/2 no race, 3/2 no race; every bound pair up to 3/2 finished"),
        "{out}"
    );
}

/// A deeper unwinding that changes nothing (no loop or recursion depends on it) gives the
/// same sequential program: its pair takes the earlier pair's answer and says so
/// (`same_as`) instead of running CBMC on it again; a loop the unwinding cuts makes every
/// pair's program its own.
#[test]
fn a_pair_whose_program_is_an_earlier_pairs_takes_its_answer() {
    for jobs in ["1", "2"] {
        let (code, v) = json(&["tests/e2e/global_joined_free.c", "--jobs", jobs]);
        assert_eq!(code, 0, "{v}");
        let schedule = v["deepening"]["schedule"].as_array().unwrap();
        let same: Vec<&Value> = schedule.iter().map(|p| &p["same_as"]).collect();
        assert_eq!(
            same[..4],
            [
                &Value::Null,
                &Value::Null,
                &serde_json::json!([3, 2]),
                &serde_json::json!([3, 2])
            ],
            "{v}"
        );
        assert!(schedule.iter().all(|p| p["state"] == "no-race"), "{v}");
        assert_eq!(
            (&v["bounds"]["rounds"], &v["bounds"]["unwind"]),
            (&3.into(), &4.into()),
            "{v}"
        );
    }
    let (code, out, _) = ladr(&["tests/e2e/global_joined_free.c", "-j", "1", "-q"]);
    assert_eq!(code, 0);
    assert!(
        out.contains("3/3 no race (the program of 3/2), 3/4 no race (the program of 3/2)"),
        "{out}"
    );
    // The cut loop: 3/3 and 3/4 unwind it further, each its own program and CBMC run.
    let (code, v) = json(&["tests/e2e/nondet_loop_free.c", "--jobs", "1"]);
    assert_eq!(code, 0, "{v}");
    let schedule = v["deepening"]["schedule"].as_array().unwrap();
    assert!(schedule.iter().all(|p| p.get("same_as").is_none()), "{v}");
    assert_eq!(v["deepening"]["prefix"], 4, "{v}");
    let (code, v) = json(&["tests/e2e/nondet_loop_racy.c", "--jobs", "1"]);
    assert_eq!(code, 1, "{v}");
    assert_eq!(lines(&v["races"][0]), [8, 16], "{v}");
}

#[test]
fn swarm_instances_under_jobs_give_the_unsplit_answers() {
    for (file, rounds, racy) in [
        ("tests/e2e/three_rounds_racy.c", "3", true),
        ("tests/e2e/mutex_racy.c", "2", true),
        ("tests/e2e/mutex_free.c", "2", false),
    ] {
        let (code, v) = json(&[
            file,
            "--rounds",
            rounds,
            "--no-deepen",
            "--swarm",
            "4",
            "-j",
            "2",
        ]);
        assert_eq!(code, if racy { 1 } else { 0 }, "{file}: {v}");
        assert_eq!(v["deepening"]["schedule"][0]["instances"], 4, "{file}: {v}");
    }
}

/// Emits the instances of `file` into a new directory, runs every command of
/// `commands.txt` with a plain `sh` loop, and returns the directory and each instance's
/// CBMC exit status.
fn emit_and_run(file: &str, rounds: &str) -> (tempfile::TempDir, Vec<i32>) {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("swarm");
    let o = out.to_str().unwrap();
    let (code, _, err) = ladr(&["swarm", "emit", o, file, "--rounds", rounds]);
    assert_eq!(code, 0, "{err}");
    for f in ["manifest.json", "commands.txt", "slurm.sh"] {
        assert!(out.join(f).is_file(), "{f} missing");
    }
    let commands = std::fs::read_to_string(out.join("commands.txt")).unwrap();
    let n = commands.lines().count();
    assert!(n > 1, "{commands}");
    let slurm = std::fs::read_to_string(out.join("slurm.sh")).unwrap();
    assert!(
        slurm.contains(&format!("#SBATCH --array=0-{}", n - 1)),
        "{slurm}"
    );
    let run = Command::new("sh")
        .arg("-c")
        .arg("while read -r cmd; do sh -c \"$cmd\"; done < commands.txt")
        .current_dir(&out)
        .status()
        .unwrap();
    assert!(run.success());
    let exits = (0..n)
        .map(|i| {
            let s = std::fs::read_to_string(out.join(i.to_string()).join("cbmc.exit")).unwrap();
            s.trim().parse().unwrap()
        })
        .collect();
    (dir, exits)
}

fn collect(dir: &Path, format: &str) -> (i32, String) {
    let d = dir.join("swarm");
    let (code, out, err) = ladr(&["swarm", "collect", d.to_str().unwrap(), "--format", format]);
    assert!(code != 2, "{err}");
    (code, out)
}

/// Each program's instances combine to its unsplit verdict: racy, some instance finds a
/// race; race-free, every instance finds none.
#[test]
fn swarm_instances_combine_to_the_unsplit_verdict() {
    for (file, rounds) in [
        ("tests/e2e/global_racy.c", "2"),
        ("tests/e2e/global_joined_free.c", "2"),
        ("tests/e2e/three_rounds_racy.c", "3"),
        ("tests/e2e/condvar_free.c", "2"),
        ("tests/e2e/two_races_racy.c", "2"),
        ("tests/e2e/atomic_section_free.c", "2"),
    ] {
        let (unsplit, v) = json(&[file, "--rounds", rounds, "--no-deepen"]);
        let (dir, exits) = emit_and_run(file, rounds);
        assert!(
            exits.iter().all(|&e| e == 0 || e == 10),
            "{file}: {exits:?}"
        );
        match unsplit {
            1 => assert!(exits.contains(&10), "{file}: racy, but {exits:?}"),
            0 => assert!(exits.iter().all(|&e| e == 0), "{file}: free, but {exits:?}"),
            _ => panic!("{file}: no verdict {v}"),
        }
        let (code, out) = collect(dir.path(), "json");
        assert_eq!(code, unsplit, "{file}: {out}");
        let c: Value = serde_json::from_str(&out).unwrap();
        assert_eq!(c["verdict"], v["verdict"], "{file}");
        assert_eq!(c["bounds"]["rounds"], v["bounds"]["rounds"], "{file}");
    }
}

#[test]
fn swarm_collect_maps_the_race_back_to_the_source() {
    let (_, v) = json(&["tests/e2e/global_racy.c", "--no-deepen"]);
    let (dir, _) = emit_and_run("tests/e2e/global_racy.c", "2");
    let (code, out) = collect(dir.path(), "json");
    assert_eq!(code, 1, "{out}");
    let c: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(lines(&c["races"][0]), lines(&v["races"][0]), "{out}");
    assert_eq!(lines(&c["races"][0]), [3, 4]);
    let instances = c["swarm"]["instances"].as_u64().unwrap();
    assert!(!c["swarm"]["race"].as_array().unwrap().is_empty(), "{out}");
    assert_eq!(
        c["swarm"]["race"].as_array().unwrap().len()
            + c["swarm"]["no_race"].as_array().unwrap().len(),
        instances as usize
    );
    let (code, text) = collect(dir.path(), "text");
    assert_eq!(code, 1);
    assert!(
        text.contains("error[data-race]: data race on `x`"),
        "{text}"
    );
    let (_, sarif) = collect(dir.path(), "sarif");
    let s: Value = serde_json::from_str(&sarif).unwrap();
    assert_eq!(
        s["runs"][0]["results"].as_array().unwrap().len(),
        1,
        "{sarif}"
    );

    // A changed input is refused, not mapped through the wrong line map.
    let (dir, _) = {
        let src = tempfile::tempdir().unwrap();
        let f = src.path().join("p.c");
        std::fs::copy("tests/e2e/global_racy.c", &f).unwrap();
        let (d, e) = emit_and_run(f.to_str().unwrap(), "2");
        std::fs::write(
            &f,
            std::fs::read_to_string(&f)
                .unwrap()
                .replace("x = 1", "x = 2; x = 1"),
        )
        .unwrap();
        ((d, src), e)
    };
    let d = dir.0.path().join("swarm");
    let (code, _, err) = ladr(&["swarm", "collect", d.to_str().unwrap()]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("changed"), "{err}");
}

#[test]
fn swarm_collect_without_outputs_has_no_verdict() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("swarm");
    let (code, _, err) = ladr(&[
        "swarm",
        "emit",
        out.to_str().unwrap(),
        "tests/e2e/global_joined_free.c",
    ]);
    assert_eq!(code, 0, "{err}");
    let (code, text) = collect(dir.path(), "text");
    assert_eq!(code, 3, "{text}");
    assert!(text.contains("has no output"), "{text}");
}

#[test]
fn the_constant_loop_probe_finds_a_race_in_the_first_iterations() {
    // Both loops have a constant bound of 40: the first bound pair unwinds them completely,
    // the probe cuts them after 2 iterations and finds the race there.
    for jobs in ["1", "2"] {
        let file = "tests/e2e/constant_loop_racy.c";
        let (code, v) = json(&[file, "--jobs", jobs, "--deepen-steps", "1"]);
        assert_eq!(code, 1, "{v}");
        assert_eq!(lines(&v["races"][0]), [8, 16], "{v}");
        assert_eq!(v["deepening"]["probe"], true, "{v}");
        assert_eq!(v["bounds"]["cuts"], serde_json::json!(["loop"]), "{v}");
        assert_eq!(v["deepening"]["schedule"][1]["state"], "not-started", "{v}");
        // Without deepening there is no probe: the same race, with the loops unwound.
        let (code, v) = json(&[file, "--jobs", jobs, "--no-deepen"]);
        assert_eq!(code, 1, "{v}");
        assert_eq!(lines(&v["races"][0]), [8, 16], "{v}");
        assert_eq!(v["deepening"]["probe"], false, "{v}");
        assert_eq!(v["bounds"]["cuts"], serde_json::json!([]), "{v}");
        let (_, out, _) = ladr(&[file, "--jobs", jobs, "--deepen-steps", "1", "-q"]);
        assert!(
            out.contains("2/2 race (probe: loops of a constant bound cut after 2 iterations)"),
            "{out}"
        );
        // The twin joins before it reads: the probe finds nothing, and "no race" is that of
        // the schedule, the loops unwound completely (no cut).
        let (code, v) = json(&[
            "tests/e2e/constant_loop_free.c",
            "--jobs",
            jobs,
            "--deepen-steps",
            "1",
        ]);
        assert_eq!(code, 0, "{v}");
        assert_eq!(v["deepening"]["probe"], false, "{v}");
        assert_eq!(v["bounds"]["cuts"], serde_json::json!([]), "{v}");
        assert_eq!(
            v["deepening"]["finished"],
            serde_json::json!([[2, 2], [3, 2]]),
            "{v}"
        );
    }
}

#[test]
fn the_probe_answers_when_the_first_bound_pair_cannot() {
    // Loops of a constant bound of 100 in two threads: unwound completely (the first bound
    // pair) CBMC needs minutes and gigabytes; with them cut after 2 iterations (the probe) a
    // second. The answer is the probe's "no race", its cut stated, not "unknown". The first
    // pairs are made to fail by memory (300 MB), not by time, so that the answer does not
    // depend on the machine's load: the probe has a quarter of the 300 s.
    let file = "tests/e2e/constant_loop_heavy_free.c";
    let heavy = [
        file,
        "--timeout",
        "300",
        "--memory",
        "300",
        "--deepen-steps",
        "1",
    ];
    for jobs in ["1", "2"] {
        let (code, v) = json(&[&heavy[..], &["--jobs", jobs]].concat());
        assert_eq!(code, 0, "{v}");
        assert_eq!(v["verdict"], "no-race", "{v}");
        assert_eq!(v["deepening"]["probe"], true, "{v}");
        assert_eq!(v["bounds"]["cuts"], serde_json::json!(["loop"]), "{v}");
        assert_eq!(v["bounds"]["vacuous"], false, "{v}");
        assert_eq!(v["deepening"]["schedule"][0]["state"], "unfinished", "{v}");
        assert_eq!(v["deepening"]["prefix"], 0, "{v}");
    }
    let (_, out, _) = ladr(&[&heavy[..], &["-q"]].concat());
    assert!(
        out.contains("2/2 no race with loops of a constant bound cut after 2 iterations (probe)"),
        "{out}"
    );
    // SV-COMP's `true` would claim the loops' every iteration: unknown, whether the probe
    // answered in time or not.
    let (_, out, _) = ladr(&[file, "--svcomp", "--timeout", "5"]);
    assert!(out.ends_with("SV-COMP result: unknown\n"), "{out}");
}

#[test]
fn a_race_beyond_the_probe_is_the_first_pairs() {
    // The race lies in the 20th iteration: the probe finds no race, the first bound pair
    // finds it, and the answer is that pair's (no `loop` cut, `probe` false). With two jobs
    // the first two pairs run at once and either may find the race first: the answer is the
    // first pair's all the same.
    for jobs in ["1", "2"] {
        let (code, v) = json(&["tests/e2e/late_iteration_racy.c", "--jobs", jobs]);
        assert_eq!(code, 1, "{v}");
        assert_eq!(lines(&v["races"][0]), [12, 20], "{v}");
        assert_eq!(v["deepening"]["probe"], false, "{v}");
        assert_eq!(v["bounds"]["cuts"], serde_json::json!([]), "{v}");
        let schedule = v["deepening"]["schedule"].as_array().unwrap();
        let first_race = schedule
            .iter()
            .position(|s| s["state"] == "race")
            .unwrap_or_else(|| panic!("no pair found the race: {v}"));
        assert_eq!(first_race, 0, "{v}");
        let pair = &schedule[first_race];
        assert_eq!(
            (&pair["rounds"], &pair["unwind"]),
            (&v["bounds"]["rounds"], &v["bounds"]["unwind"]),
            "{v}"
        );
    }
}

/// A check stopped by the time limit says what happened (issue 33): the phase CBMC had
/// reached, the program's size and the option most likely to help.
#[test]
fn an_answer_out_of_time_says_where_the_time_went() {
    let file = "tests/e2e/constant_loop_heavy_free.c";
    let (code, v) = json(&[file, "--timeout", "8", "--no-deepen"]);
    assert_eq!(code, 3, "{v}");
    let reason = v["reason"].as_str().unwrap();
    assert!(reason.starts_with("CBMC ran out of time in "), "{reason}");
    for says in [
        "thread slots",
        "visible statements",
        "instrumented accesses",
        "may help: ",
    ] {
        assert!(reason.contains(says), "{reason}");
    }
}

/// The same with the deepening schedule (issue 33 item 3): the check stops its CBMC runs a
/// little before the limit, so the answer says which phase ran out, the size and what may
/// help, not only that the time limit was reached.
#[test]
fn a_deepening_out_of_time_says_where_the_time_went() {
    let file = "tests/e2e/constant_loop_heavy_free.c";
    let (code, v) = json(&[file, "--timeout", "8", "--deepen", "--jobs", "1"]);
    // The probe's "no race" (exit 0) or, on a machine too busy for even the probe, no answer
    // (exit 3): either way the first bound pair ran out of time, and says where.
    assert!(code == 0 || code == 3, "{v}");
    let pair = &v["deepening"]["schedule"][0];
    assert_eq!(pair["state"], "unfinished", "{v}");
    let mut reasons = vec![pair["reason"].as_str().unwrap_or_default()];
    if code == 3 {
        reasons.push(v["reason"].as_str().unwrap_or_default());
    }
    for reason in reasons {
        for says in [
            "thread slots",
            "visible statements",
            "instrumented accesses",
            "may help: ",
        ] {
            assert!(reason.contains(says), "{reason}: {v}");
        }
    }
}

/// The ladr binary on `args` with `--format json -q` (and `--no-prove`), `$LADR_CADICAL`
/// set to `cadical` if given: exit status, document, stderr.
fn json_with_cadical(args: &[&str], cadical: Option<&Path>) -> (i32, Value, String) {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_ladr"));
    cmd.current_dir(env!("CARGO_MANIFEST_DIR"))
        .args(args)
        .args(["--format", "json", "-q", "--no-prove"]);
    if let Some(c) = cadical {
        cmd.env("LADR_CADICAL", c);
    }
    let out = cmd.output().expect("run ladr");
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    let err = String::from_utf8_lossy(&out.stderr).into_owned();
    let v = serde_json::from_str(&text).unwrap_or(Value::Null);
    (out.status.code().unwrap_or(-1), v, err)
}

/// Every `--solver` gives the same answers: the race on the same lines, "no race" for the
/// twin (CaDiCaL is the one `scripts/install-cbmc` installs, or `$LADR_CADICAL`).
#[test]
fn every_solver_gives_the_same_answers() {
    for solver in ["minisat", "cadical", "portfolio"] {
        let (code, v, err) = json_with_cadical(
            &["tests/e2e/mutex_racy.c", "--no-deepen", "--solver", solver],
            None,
        );
        assert_eq!(code, 1, "{solver}: {v}\n{err}");
        assert_eq!(lines(&v["races"][0]), [6, 10], "{solver}: {v}");
        let (code, v, err) = json_with_cadical(
            &["tests/e2e/mutex_free.c", "--no-deepen", "--solver", solver],
            None,
        );
        assert_eq!(code, 0, "{solver}: {v}\n{err}");
        assert_eq!(v["verdict"], "no-race", "{solver}: {v}");
    }
}

/// A portfolio whose CaDiCaL fails (here a stand-in that answers nothing CBMC can read)
/// answers with MiniSat's verdict; `--solver cadical` alone has no answer (exit 3), and a
/// `$LADR_CADICAL` naming no program is an error before any check.
#[test]
fn a_failing_solver_leaves_the_portfolio_to_the_other() {
    use std::os::unix::fs::PermissionsExt;
    let d = tempfile::tempdir().unwrap();
    let broken = d.path().join("cadical");
    std::fs::write(&broken, "#!/bin/sh\necho 's SOMETHING'\n").unwrap();
    std::fs::set_permissions(&broken, std::fs::Permissions::from_mode(0o755)).unwrap();
    let file = "tests/e2e/mutex_racy.c";
    let (code, v, err) = json_with_cadical(
        &[file, "--no-deepen", "--solver", "portfolio"],
        Some(&broken),
    );
    assert_eq!(code, 1, "{v}\n{err}");
    assert_eq!(lines(&v["races"][0]), [6, 10], "{v}");
    let (code, v, err) =
        json_with_cadical(&[file, "--no-deepen", "--solver", "cadical"], Some(&broken));
    assert_eq!(code, 3, "{v}\n{err}");
    let missing = d.path().join("no-such-solver");
    let (code, v, err) = json_with_cadical(&[file, "--solver", "cadical"], Some(&missing));
    assert_ne!(code, 0, "{v}\n{err}");
    assert_ne!(code, 1, "{v}\n{err}");
    assert!(
        format!("{v}{err}").contains("CaDiCaL was not found"),
        "{v}\n{err}"
    );
}

#[test]
fn the_default_schedule_stops_at_three_rounds_and_four_unwindings() {
    // `ladr FILE` deepens from 2/2 to 3/4 (ladr_check::DEEPEN_STEPS); --deepen-steps 6, SV-COMP
    // mode's count, goes on to 5/4. (The tests' `ladr` runs without the static proof.)
    let file = "tests/e2e/global_joined_free.c";
    let (code, v) = json(&[file, "--jobs", "1"]);
    assert_eq!(code, 0, "{v}");
    let pairs = |v: &Value| -> Vec<(u64, u64)> {
        let schedule = v["deepening"]["schedule"].as_array().unwrap();
        let pair = |s: &Value| (s["rounds"].as_u64().unwrap(), s["unwind"].as_u64().unwrap());
        schedule.iter().map(pair).collect()
    };
    assert_eq!(pairs(&v), [(2, 2), (3, 2), (3, 3), (3, 4)], "{v}");
    assert_eq!(
        (&v["bounds"]["rounds"], &v["bounds"]["unwind"]),
        (&3.into(), &4.into()),
        "{v}"
    );
    let (code, v) = json(&[file, "--jobs", "1", "--deepen-steps", "6"]);
    assert_eq!(code, 0, "{v}");
    assert_eq!(pairs(&v).last(), Some(&(5, 4)), "{v}");
}
