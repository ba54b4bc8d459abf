//! OpenMP programs (issue 31): `#pragma omp` lowered to threads, locks and barriers by the
//! front end; each racy program is reported on the user's lines, its twin is race-free.
//! A construct ladr does not model is a located "unsupported" error.

use super::checked::{check, checked, e2e};
use super::{free, ladr, racy, racy_one_of};

/// `parallel for`: iterations on different threads; a loop-carried dependence races.
#[test]
fn parallel_for_with_a_loop_carried_dependence() {
    racy("omp_for_racy.c", (7, 7));
    free("omp_for_free.c");
}

/// `reduction(+: sum)`: private copies combined at the end; without it `sum += ...` races.
#[test]
fn reduction_makes_the_sum_race_free() {
    racy("omp_reduction_racy.c", (8, 8));
    free("omp_reduction_free.c");
}

/// `critical(name)`: one thread at a time in the block.
#[test]
fn critical_orders_the_increments() {
    racy("omp_critical_racy.c", (6, 6));
    free("omp_critical_free.c");
}

/// `atomic`: the update is atomic, the plain accesses after it still race with it.
#[test]
fn atomic_update_races_only_with_plain_accesses() {
    racy_one_of("omp_atomic_racy.c", &[(9, 9), (8, 9), (7, 9), (7, 8)]);
    free("omp_atomic_free.c");
}

/// A claim past the end of a worksharing loop (a skip) moves the counter on; the claims
/// after it that would wrap `i` around are past the end too, never iterations at
/// `i = INT_MIN` (where two blocks that may be null met as one memory: a false race).
#[test]
fn claims_past_the_end_never_wrap_around() {
    racy("omp_claim_wrap_racy.c", (10, 11));
    free("omp_claim_wrap_free.c");
}

/// A loop-local temporary is shared unless `private`.
#[test]
fn private_temporary() {
    // The shared temporary: written at line 7, read at line 8, by both threads.
    racy_one_of("omp_private_racy.c", &[(7, 7), (7, 8)]);
    free("omp_private_free.c");
}

/// `barrier` and `omp_get_thread_num`: thread 0 writes, everyone reads after the barrier.
#[test]
fn barrier_orders_the_write_before_the_reads() {
    racy("omp_barrier_racy.c", (8, 9));
    free("omp_barrier_free.c");
}

/// OpenMP locks are mutexes.
#[test]
fn omp_locks() {
    // Line 11 races with line 9 and with itself (two threads doubling `total`).
    racy_one_of("omp_lock_racy.c", &[(9, 11), (11, 11)]);
    free("omp_lock_free.c");
}

/// A task whose code depends on the thread running it (`omp_get_thread_num`) is refused at
/// the task's line, never "no race": which team thread runs a task is not modelled.
#[test]
fn task_using_the_thread_number_is_refused_with_its_location() {
    let (code, _, err) = ladr(&["tests/data/unsupported/openmp_task.c"]);
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("a task whose code uses `omp_get_thread_num`"),
        "{err}"
    );
    assert!(err.contains("openmp_task.c:8"), "{err}");
}

/// `task`: a deferred task runs concurrently with its creator; a local declared in the
/// region is firstprivate in the task (its own copy), a local of `main` is shared.
#[test]
fn task_runs_concurrently_with_its_creator() {
    racy("omp_task_racy.c", (8, 9));
    free("omp_task_free.c");
}

/// `taskwait`: the creator waits for its child task before reading what it wrote.
#[test]
fn taskwait_orders_the_child_before_the_read() {
    racy("omp_taskwait_racy.c", (8, 9));
    free("omp_taskwait_free.c");
}

/// `taskgroup` waits for every descendant (a grandchild task too); `taskwait` only for the
/// children, so the grandchild's write races with the creator's.
#[test]
fn taskgroup_waits_for_descendants() {
    racy("omp_taskgroup_racy.c", (10, 13));
    free("omp_taskgroup_free.c");
}

/// `depend(out: x)` then `depend(in: x)`: the second sibling starts after the first ended;
/// on another item they race.
#[test]
fn depend_orders_sibling_tasks() {
    racy("omp_depend_racy.c", (8, 10));
    free("omp_depend_free.c");
}

/// `taskloop`: iterations are tasks; its implicit taskgroup orders them before the read
/// after it, `nogroup` does not.
#[test]
fn taskloop_has_an_implicit_taskgroup() {
    racy("omp_taskloop_racy.c", (10, 11));
    free("omp_taskloop_free.c");
}

/// `task if(0)` is undeferred: the creator waits for it; `if(1)` is deferred.
#[test]
fn undeferred_task_runs_before_the_creator_continues() {
    racy("omp_task_if_racy.c", (8, 9));
    free("omp_task_if_free.c");
}

/// A `static` local is one object for every thread and task: shared in a task, not copied.
#[test]
fn a_static_local_is_shared_by_tasks() {
    racy("omp_task_static_racy.c", (11, 13));
    free("omp_task_static_free.c");
}

/// `threadprivate`: each thread has its own copy of the global.
#[test]
fn threadprivate_global() {
    // `partial` written at line 7 and read at line 9 by both threads.
    racy_one_of("omp_threadprivate_racy.c", &[(7, 7), (7, 9)]);
    free("omp_threadprivate_free.c");
}

/// A struct local of the enclosing function is shared by the region (reached through a
/// pointer, never copied).
#[test]
fn shared_struct_local() {
    racy("omp_struct_racy.c", (9, 9));
    free("omp_struct_free.c");
}

/// A set-up loop of `main` longer than `--max-unwind`, before any thread exists, is one
/// step that gives the array arbitrary values: the region after it is reached (no vacuous
/// "no race"); the race-free twin's "no race" holds. The race found is reported when no
/// branch or address depends on the values the step gave (`passes::dataonly`: the array
/// is data-only); where an index does (`a[idx[i]]` with `idx` filled by a loop of 5000,
/// beyond what is copied whole), the race found may rest on values the loop never stores
/// and is an unknown naming the loop.
#[test]
fn setup_loop_before_the_region_is_one_step() {
    free("omp_setup_free.c");
    racy("omp_setup_racy.c", (9, 9));
    assert_unknown(
        &["tests/e2e/omp_setup_index.c"],
        &["set-up loop at", "omp_setup_index.c:6"],
    );
}

/// Asserts that ladr on `args` (at the first bound pair) answers "unknown" (exit 3) with a
/// reason containing each of `says`.
fn assert_unknown(args: &[&str], says: &[&str]) {
    let args = [args, &["--format", "json", "--no-deepen"]].concat();
    let (code, out, err) = crate::ladr(&args);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap_or_else(|_| panic!("{err}"));
    assert_eq!(v["verdict"], "unknown", "{args:?}: {out}");
    assert_eq!(code, 3, "{out}");
    let reason = v["reason"].as_str().unwrap_or_default();
    assert!(
        says.iter().all(|s| reason.contains(s)),
        "{args:?}: {reason}"
    );
}

/// `parallel if(c)`: a team of one thread where `c` is false, so the unprotected update
/// races only when `c` holds (the atomic region after it gives the twin its threads).
#[test]
fn if_clause_decides_the_team() {
    racy("omp_if_racy.c", (6, 6));
    free("omp_if_free.c");
}

/// `--omp-threads N` sizes a team the program does not size: a race between the team's
/// threads 1 and 2 needs three threads (none with the default two).
#[test]
fn omp_threads_sizes_the_team() {
    let file = "tests/e2e/omp_three_threads_racy.c";
    let (code, out, err) = crate::ladr(&[file, "--format", "json", "--no-deepen"]);
    assert_eq!(code, 0, "{out}{err}");
    let (code, out, err) = crate::ladr(&[file, "--omp-threads", "3", "--format", "json"]);
    assert_eq!(code, 1, "{out}{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(crate::race_lines(&v["races"][0]), [7, 9], "{out}");
}

/// `collapse(2)`: the iterations of both loops are shared out; `a[i][j + 1]` of one
/// iteration is `a[i][j]` of the next.
#[test]
fn collapse_shares_out_the_nest() {
    racy("omp_collapse_racy.c", (8, 8));
    free("omp_collapse_free.c");
}

/// `ordered`: the regions run in iteration order; the update after it is not ordered.
#[test]
fn ordered_regions_run_in_iteration_order() {
    racy_one_of("omp_ordered_racy.c", &[(7, 8), (8, 8)]);
    free("omp_ordered_free.c");
    // An `ordered` region some iterations skip is refused, never waited for.
    let (code, _, err) = ladr(&["tests/data/unsupported/openmp_ordered_skipped.c"]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("openmp_ordered_skipped.c:4"), "{err}");
}

/// `copyprivate(x)`: every thread gets the single thread's `x`; without it the other
/// thread's `x` is 0 and the two write one element.
#[test]
fn copyprivate_broadcasts_the_single_value() {
    racy("omp_copyprivate_racy.c", (9, 9));
    free("omp_copyprivate_free.c");
}

/// `linear(j:2)`: each iteration's private `j` is its start value plus 2 per iteration;
/// without it `j` is shared and written by every iteration.
#[test]
fn linear_variable_is_private_per_iteration() {
    racy_one_of("omp_linear_racy.c", &[(7, 7), (7, 8), (8, 8)]);
    // The shared `j`, which the lowering reaches through a pointer, is named as written,
    // also inside an index (`c[j]`, not `c[*j]`).
    let c = crate::checked::checked("omp_linear_racy.c");
    for a in c.json_value["races"][0]["accesses"].as_array().unwrap() {
        let expr = a["expr"].as_str().unwrap_or_default();
        assert!(["c[j]", "j"].contains(&expr), "{expr}: {}", c.json);
    }
    free("omp_linear_free.c");
}

/// Nest locks are recursive mutexes: a thread relocks the lock it holds.
#[test]
fn nest_locks_are_recursive() {
    racy_one_of("omp_nest_lock_racy.c", &[(6, 16), (16, 16)]);
    free("omp_nest_lock_free.c");
}

/// `simd`: iterations may run in lanes of one chunk, so a loop-carried dependence races.
/// Outside a region the lanes are a team of two; inside one (each thread's own part of
/// `a`), in a `for simd` of a one-thread team and under `safelen(2)` a lane thread runs a
/// handed-over iteration: the dependence of distance 1 races, the twins write each lane's
/// own element, and under `safelen(2)` a dependence of distance 2 is not a race. A `simd`
/// clause the lanes do not model (`reduction`) and doacross loops are refused.
#[test]
fn simd_lanes_race_on_a_loop_carried_dependence() {
    racy("omp_simd_racy.c", (7, 7));
    free("omp_simd_free.c");
    racy("omp_simd_region_racy.c", (9, 9));
    free("omp_simd_region_free.c");
    racy("omp_for_simd_racy.c", (8, 8));
    free("omp_for_simd_free.c");
    racy("omp_safelen_racy.c", (6, 6));
    free("omp_safelen_free.c");
    refused(&[
        (
            "openmp_simd_reduction_in_region.c",
            6,
            "the clause `reduction`",
        ),
        ("openmp_doacross.c", 7, "does not name an earlier iteration"),
    ]);
}

/// Doacross `ordered(1)`: a sink waits until the iteration it names has passed its
/// source. Reading `a[i - 1]` before the sink races with iteration `i - 1`'s write; after
/// it, not (the loop's claims do not skip: where its three iterations fit in each thread's
/// unwinding the loop's cut ends no execution and the bounded "no race" stands).
#[test]
fn doacross_sinks_wait_for_their_sources() {
    racy("omp_doacross_racy.c", (6, 6));
    // At the default unwinding of 2 a thread cannot claim all three iterations: the cut
    // of a loop whose claims keep their order leaves the answer unknown, never "no race".
    assert_eq!(checked("omp_doacross_free.c").outcome.verdict, "unknown");
    let opts = ladr_ir::program::Options {
        unwind: 4,
        ..Default::default()
    };
    let c = check(&e2e("omp_doacross_free.c"), &opts, None);
    assert_eq!(c.outcome.verdict, "no-race", "{}", c.text);
    assert!(c.text.contains("no race found"), "{}", c.text);
}

/// A worksharing loop's claims may skip to any later iteration: iterations 10 apart race
/// within the default unwinding of 2 (without the skip, two threads reached only the first
/// four iterations), and so does a read after a `nowait` loop with an iteration near its
/// end (DataRaceBench's DRB013). Their twins write other elements / keep the barrier.
#[test]
fn worksharing_claims_reach_the_whole_range() {
    racy("omp_far_racy.c", (7, 7));
    free("omp_far_free.c");
    racy("omp_nowait_racy.c", (9, 11));
    free("omp_nowait_free.c");
}

/// A race report names each access's OpenMP thread number and its iteration: the write of
/// `a[i]` and the read of `a[i + 10]` are of one element, so the writer's `i` is the
/// reader's plus 10 (each value read from that thread's own `i`, when it accessed).
#[test]
fn race_report_names_omp_threads_and_iterations() {
    let file = "tests/e2e/omp_far_racy.c";
    let (code, out, err) = crate::ladr(&[file, "--format", "json", "--no-deepen"]);
    assert_eq!(code, 1, "{out}{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    let accesses = v["races"][0]["accesses"].as_array().unwrap();
    let mut nums: Vec<u64> = accesses
        .iter()
        .map(|a| a["thread"]["omp_thread_num"].as_u64().unwrap())
        .collect();
    nums.sort();
    assert_eq!(nums, [0, 1], "{out}");
    let i_of = |kind: &str| -> i64 {
        let a = accesses.iter().find(|a| a["kind"] == kind).unwrap();
        let i = a["values"]
            .as_array()
            .unwrap()
            .iter()
            .find(|x| x["name"] == "i");
        i.unwrap()["value"].as_str().unwrap().parse().unwrap()
    };
    assert_eq!(i_of("write"), i_of("read") + 10, "{out}");
    let (_, text, _) = crate::ladr(&[file, "--no-deepen"]);
    assert!(
        text.contains("OpenMP thread 0") && text.contains("OpenMP thread 1"),
        "{text}"
    );
}

/// Issue 31 item 4: an answer on a program with a team it does not size states that team's
/// size (`--omp-threads`), a bound of the answer, in the text and in JSON's
/// `bounds.omp_threads`; a team sized by `num_threads` and a program without OpenMP state
/// none.
#[test]
fn the_answer_states_the_team_size() {
    let c = crate::checked::checked("omp_for_free.c");
    assert_eq!(c.outcome.verdict, "no-race", "{}", c.text);
    assert_eq!(c.json_value["bounds"]["omp_threads"], 2, "{}", c.json);
    assert!(
        c.text
            .contains("unwindings, with OpenMP teams of 2 threads set by --omp-threads"),
        "{}",
        c.text
    );
    let c = crate::checked::checked("omp_for_racy.c");
    assert_eq!(c.outcome.verdict, "race", "{}", c.text);
    assert_eq!(c.json_value["bounds"]["omp_threads"], 2, "{}", c.json);
    for sized_or_none in ["omp_barrier_free.c", "fn_pointer_task_free.c"] {
        let c = crate::checked::checked(sized_or_none);
        assert_eq!(c.outcome.verdict, "no-race", "{}", c.text);
        assert!(
            c.json_value["bounds"].get("omp_threads").is_none(),
            "{}",
            c.json
        );
        assert!(!c.text.contains("OpenMP teams"), "{}", c.text);
    }
    let file = "tests/e2e/omp_for_free.c";
    let (code, out, err) = crate::ladr(&[
        file,
        "--omp-threads",
        "3",
        "--no-deepen",
        "--format",
        "json",
    ]);
    assert_eq!(code, 0, "{out}{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["bounds"]["omp_threads"], 3, "{out}");
}

/// Issue 31: a `for nowait` (and the constructs after it) in a `parallel` region that runs
/// in a loop: each encounter is a new team, so the loop around the region does not refuse
/// it (it did: "`for nowait` inside a loop"); the read after the `nowait` loop races with
/// the write of the same element, the twin reads another array.
#[test]
fn nowait_in_a_region_run_in_a_loop() {
    racy("omp_nowait_loop_racy.c", (12, 14));
    free("omp_nowait_loop_free.c");
}

/// `sections`: two sections may run on two threads; both write `x`, the twin's write
/// two variables.
#[test]
fn sections_run_on_any_thread() {
    racy("omp_sections_racy.c", (7, 9));
    free("omp_sections_free.c");
}

/// Issue 31: each access names the OpenMP construct it is in, text (a note per access),
/// JSON (`accesses[].omp_construct`) and SARIF (the result's message); a shared scalar is
/// named as written (`i`, not the lowering's pointer `*i`).
#[test]
fn race_report_names_the_construct_of_each_access() {
    let c = crate::checked::checked("omp_nowait_loop_racy.c");
    assert_eq!(c.outcome.verdict, "race", "{}", c.text);
    let file = "tests/e2e/omp_nowait_loop_racy.c";
    let accesses = c.json_value["races"][0]["accesses"].as_array().unwrap();
    let mut named: Vec<(u64, String, u64)> = accesses
        .iter()
        .map(|a| {
            let k = &a["omp_construct"];
            assert_eq!(k["at"]["file"], file, "{}", c.json);
            let name = k["name"].as_str().unwrap().to_string();
            (
                a["line"].as_u64().unwrap(),
                name,
                k["at"]["line"].as_u64().unwrap(),
            )
        })
        .collect();
    named.sort();
    assert_eq!(
        named,
        [(12, "for".to_string(), 10), (14, "single".to_string(), 13)],
        "{}",
        c.json
    );
    for note in [
        format!("at {file}:12 (in the `for` at {file}:10)"),
        format!("at {file}:14 (in the `single` at {file}:13)"),
    ] {
        assert!(c.text.contains(&note), "{note}\n{}", c.text);
    }
    let run = &c.sarif["runs"][0];
    let message = run["results"][0]["message"]["text"].as_str().unwrap();
    assert!(
        message.contains("at line 12 in the `for` at line 10")
            && message.contains("at line 14 in the `single` at line 13"),
        "{message}"
    );
    // A shared scalar of the function: the user's `x`, and no pointer value.
    let c = crate::checked::checked("omp_for_racy.c");
    let accesses = c.json_value["races"][0]["accesses"].as_array().unwrap();
    for a in accesses {
        assert_eq!(a["omp_construct"]["name"], "parallel for", "{}", c.json);
        assert_eq!(a["omp_construct"]["at"]["line"], 5, "{}", c.json);
    }
    let c = crate::checked::checked("omp_sections_racy.c");
    assert_eq!(c.outcome.verdict, "race", "{}", c.text);
    let accesses = c.json_value["races"][0]["accesses"].as_array().unwrap();
    for a in accesses {
        assert_eq!(a["expr"], "x", "{}", c.json);
        assert_eq!(
            a["omp_construct"]["name"], "parallel sections",
            "{}",
            c.json
        );
        let values = a["values"].as_array().unwrap();
        assert!(
            values
                .iter()
                .all(|v| !v["value"].as_str().unwrap().starts_with('&')),
            "{}",
            c.json
        );
    }
    assert!(c.text.contains("data race on `x`"), "{}", c.text);
}

/// Issue 31: the team size ladr chose (`--omp-threads`) is stated in SARIF (the result's
/// message, `bounds.omp_threads` in the run's properties) and in both witness formats
/// (GraphML `ladrOmpThreads`, YAML `producer.configuration`).
#[test]
fn sarif_and_witnesses_state_the_team_size() {
    let c = crate::checked::checked("omp_for_racy.c");
    let run = &c.sarif["runs"][0];
    let message = run["results"][0]["message"]["text"].as_str().unwrap();
    assert!(
        message.contains("Found with OpenMP teams of 2 threads set by --omp-threads."),
        "{message}"
    );
    assert_eq!(run["properties"]["bounds"]["omp_threads"], 2, "{run}");
    let dir = tempfile::tempdir().unwrap();
    let file = "tests/e2e/omp_for_racy.c";
    for (format, wanted) in [
        ("graphml", "<data key=\"ladr-omp-threads\">2</data>"),
        (
            "yaml",
            "configuration: \"OpenMP teams of 2 threads set by --omp-threads\"",
        ),
    ] {
        let w = dir.path().join(format!("witness.{format}"));
        let w_arg = w.to_str().unwrap();
        let (code, out, err) = crate::ladr(&[
            file,
            "--no-deepen",
            "--witness",
            w_arg,
            "--witness-format",
            format,
        ]);
        assert_eq!(code, 1, "{out}{err}");
        let text = std::fs::read_to_string(&w).unwrap();
        assert!(text.contains(wanted), "{wanted}\n{text}");
    }
    // A program that sizes its team states none.
    let w = dir.path().join("sized.graphml");
    let (code, out, err) = crate::ladr(&[
        "tests/e2e/omp_barrier_racy.c",
        "--no-deepen",
        "--witness",
        w.to_str().unwrap(),
    ]);
    assert_eq!(code, 1, "{out}{err}");
    let text = std::fs::read_to_string(&w).unwrap();
    assert!(!text.contains("ladr-omp-threads"), "{text}");
}

/// Issue 31: `--deepen` grows a team the program does not size by one thread after a
/// bounded "no race": the race between threads 1 and 2 (none with two threads) is found
/// with three, and the answer says the team grew; `--no-deepen` keeps two.
#[test]
fn deepening_grows_the_team() {
    let file = "tests/e2e/omp_three_threads_racy.c";
    let (code, out, err) = crate::ladr(&[file, "--deepen", "--format", "json", "--timeout", "600"]);
    assert_eq!(code, 1, "{out}{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(crate::race_lines(&v["races"][0]), [7, 9], "{out}");
    assert_eq!(v["bounds"]["omp_threads"], 3, "{out}");
    assert_eq!(v["bounds"]["omp_threads_from"], 2, "{out}");
    let (code, text, err) = crate::ladr(&[file, "--deepen", "--timeout", "600"]);
    assert_eq!(code, 1, "{text}{err}");
    assert!(
        text.contains(
            "OpenMP teams of 3 threads grown by --deepen from 2 threads set by --omp-threads"
        ),
        "{text}"
    );
    let (code, out, err) = crate::ladr(&[file, "--format", "json", "--no-deepen"]);
    assert_eq!(code, 0, "{out}{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["bounds"]["omp_threads"], 2, "{out}");
    assert!(v["bounds"].get("omp_threads_from").is_none(), "{out}");
}

/// A worksharing loop whose claims the unwinding cuts is finished by no execution within
/// the bounds (its last thread out needs every iteration claimed), so the code after its
/// barrier was never checked: a "no race" there is "unknown" naming the loop (it was "no
/// race" on this racy program). A loop two threads finish within the bounds lets the
/// check reach that code: its twin with two iterations races after the barrier.
#[test]
fn unfinished_worksharing_loop_is_unknown() {
    assert_unknown(
        &["tests/e2e/omp_unfinished_loop_racy.c"],
        &[
            "worksharing loop",
            "omp_unfinished_loop_racy.c:10",
            "never checked",
        ],
    );
    racy("omp_finished_loop_racy.c", (12, 12));
}

/// A loop each thread of a team runs iteration after iteration, cut by the unwinding: its
/// later iterations never met the other threads' (here the last one, `j = 7`, reads the
/// row another thread writes), so a "no race" there is "unknown" naming the loop (a loop
/// around another: an innermost one runs as one iteration, any, `unwind::sample`, and its
/// race is found — also where the loop is in a function the region calls). Unwound whole
/// (`--max-unwind`), the race is found, and its values are those of the variables the
/// accesses name (the barrier model's parameter `b` is not the user's array `b`), at the
/// accesses.
#[test]
fn inner_loop_cut_by_the_unwinding_is_unknown() {
    assert_unknown(
        &["tests/e2e/omp_inner_nest_racy.c", "--max-unwind", "4"],
        &["iteration after iteration", "omp_inner_nest_racy.c:6"],
    );
    for (file, unwind) in [
        ("omp_inner_nest_racy.c", "64"),
        ("omp_inner_loop_racy.c", "4"),
        ("omp_inner_call_racy.c", "4"),
        ("omp_inner_loop_racy.c", "64"),
    ] {
        let path = format!("tests/e2e/{file}");
        let (code, out, err) = ladr(&[&path, "--format", "json", "--max-unwind", unwind]);
        let v: serde_json::Value = serde_json::from_str(&out).unwrap_or_else(|_| panic!("{err}"));
        assert_eq!(v["verdict"], "race", "{file}: {out}");
        assert_eq!(code, 1, "{out}");
        for access in 0..2 {
            let values = v["races"][0]["accesses"][access]["values"]
                .as_array()
                .cloned()
                .unwrap_or_default();
            let names: Vec<&str> = values.iter().filter_map(|x| x["name"].as_str()).collect();
            assert!(
                names.contains(&"i") && !names.contains(&"b"),
                "{file}: {names:?} {out}"
            );
            // Both accesses are of element 7 of a row: `j` as it was at the access, not
            // after the loop's `j++` (the write was shown with `j = 8`).
            let j = values.iter().find(|x| x["name"] == "j");
            assert_eq!(
                j.map(|x| x["value"].clone()),
                Some("7".into()),
                "{file}: {out}"
            );
        }
    }
}

/// An inner loop of 100 iterations per row runs as one iteration, any (`unwind::sample`):
/// the race between a row's last element (`j = 99`) and the next row's `b[i][-1]` (the same
/// element) is found, which no unwinding short of 100 copies reaches; its twin, reading
/// within the row, is race-free.
#[test]
fn a_race_at_a_rows_end_is_found_through_one_iteration_of_any() {
    racy("omp_row_end_racy.c", (8, 8));
    free("omp_row_end_free.c");
}

/// A race between iterations 40 and 41: where the claims may skip ahead (no `schedule`)
/// two claims reach them; a `schedule(static, 2)` loop's threads take their chunks of two
/// in order, so a cut of that loop leaves iterations 40 and 43 unchecked, and the bounded
/// "no race" it gave (on a racy program) is an unknown naming the loop.
#[test]
fn a_cut_of_a_static_loop_is_no_answer() {
    racy("omp_late_racy.c", (6, 6));
    assert_unknown(
        &["tests/e2e/omp_static_late_racy.c"],
        &["cut the loop at tests/e2e/omp_static_late_racy.c:3"],
    );
}

/// `schedule(static, 1)` in a team the program does not size: a team of at least as many
/// threads as iterations runs each iteration on a thread of its own, so the claims skip
/// ahead as an unscheduled loop's do (`openmp/static_skip.rs`): iterations 3 and 90 race
/// within the default bounds (DataRaceBench's DRB005 needed 27 claims per thread), and
/// the twin whose iteration 90 writes a spare element has none.
#[test]
fn static_one_iteration_chunks_reach_the_whole_range() {
    racy("omp_static_far_racy.c", (7, 7));
    free("omp_static_far_free.c");
}

/// `schedule(dynamic, 2)`: a chunk's two iterations run on one thread, in order, so the
/// updates of `a[2m]` by iterations 2m and 2m + 1 never race (a claim per iteration
/// reported that race, which no schedule has); chunk m's write of `a[2m + 2]` and chunk
/// m + 1's read of it do. `guided` with chunks above 1 is refused at its line: its chunk
/// boundaries are the implementation's.
#[test]
fn chunks_of_several_iterations_run_on_one_thread() {
    free("omp_chunk_free.c");
    racy("omp_chunk_racy.c", (7, 7));
    let (code, _, err) = ladr(&["tests/data/unsupported/openmp_guided_chunk.c"]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("`schedule(guided, c)`"), "{err}");
    assert!(err.contains("openmp_guided_chunk.c:4"), "{err}");
}

/// `num_threads(2) schedule(static, 1)`: OpenMP's round robin runs iteration i on thread
/// i % 2, so `sum[i % 2] += i` has no race (a claim of any iteration by any thread
/// reported one); each thread claims its own iterations in order (`static_skip.rs`,
/// `round_robin`), and with every claim unwound the answer is "no race". Its twin's
/// iterations 0 and 3, on threads 0 and 1, both update `sum[0]`.
#[test]
fn a_sized_team_runs_static_chunks_round_robin() {
    let (code, out, err) = ladr(&["tests/e2e/omp_round_robin_free.c", "--unwind", "5"]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(
        out.starts_with("no race found within 2 rounds and 5 unwindings"),
        "{out}"
    );
    racy("omp_round_robin_racy.c", (7, 7));
}

/// A `parallel for` in a loop of `main`: a team per round, the creations of the third team
/// on cut by --max-threads. The team needs no test of its size (no `if` clause), so the
/// code after the first cut creation is dead and dropped; the race in the second team's
/// region is still found, and its race-free twin has none.
#[test]
fn regions_in_a_loop_of_main() {
    racy("omp_region_loop_racy.c", (14, 14));
    free("omp_region_loop_free.c");
}

/// `target` runs on the host, as the host fallback does: the `parallel for` in it races
/// between iterations as it would without `target` (DataRaceBench's DRB026). Where the
/// fallback would differ from a device — threads beside the region that race with the
/// copying of its mapped data (a `parallel` region's team, the program's own threads), a
/// scalar the region assigns (firstprivate there), an asynchronous target task, a function
/// with a `target` that a region's code calls — ladr refuses.
#[test]
fn target_runs_its_region_on_the_host() {
    racy("omp_target_racy.c", (7, 7));
    free("omp_target_free.c");
    // In a function only `main` calls, outside its regions (DataRaceBench's DRB099).
    racy("omp_target_call_racy.c", (6, 6));
    free("omp_target_call_free.c");
    refused(&[
        (
            "openmp_target_called_in_parallel.c",
            2,
            "in a function that the code of a `parallel` region or thread may call",
        ),
        ("openmp_target.c", 5, "assigning `n`, which is not mapped"),
        (
            "openmp_target_in_parallel.c",
            6,
            "inside a `parallel` region",
        ),
        ("openmp_target_nowait.c", 4, "the clause `nowait`"),
        (
            "openmp_target_with_pthreads.c",
            8,
            "a program with tasks or POSIX threads",
        ),
        (
            "openmp_target_map_modifier.c",
            4,
            "a `map` clause of this form",
        ),
    ]);
}

/// `teams` on the host: a league of initial threads, each running the region (DataRaceBench's
/// DRB116: both teams update `a[4]`); `distribute` divides a loop among them, without a
/// barrier, and a loop-carried dependence across its iterations races (combined `target
/// teams distribute`, its clauses given to their leaves); the race report names the team. What would make the league differ from a team — a `critical`, a
/// runtime call (in the region or a function it calls), a `parallel` inside — is refused,
/// as is `distribute` outside `teams`.
#[test]
fn teams_are_a_league_of_initial_threads() {
    racy("omp_teams_racy.c", (9, 9));
    free("omp_teams_free.c");
    racy("omp_distribute_racy.c", (7, 7));
    let (code, out, _) = ladr(&["tests/e2e/omp_distribute_racy.c", "--format", "json"]);
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("\"omp_team_num\": 1"), "{out}");
    let (_, text, _) = ladr(&["tests/e2e/omp_teams_racy.c"]);
    assert!(text.contains("initial thread of OpenMP team 1"), "{text}");
    // In a `teams` region each initial thread is thread 0 of a team of one: both teams
    // write `a[omp_get_thread_num()]`, `a[0]`; `a[omp_get_team_num()]` is each team's own.
    racy("omp_team_num_racy.c", (4, 4));
    free("omp_team_num_free.c");
    // `target teams distribute parallel for`: one `parallel for` of the league's 2 × 2
    // threads; the reduction clause makes its sum race-free.
    racy("omp_league_loop_racy.c", (6, 6));
    free("omp_league_loop_free.c");
    refused(&[
        (
            "openmp_distribute_parallel_for.c",
            5,
            "`distribute parallel for` inside a `teams` region",
        ),
        ("openmp_league_loop_schedule.c", 4, "the clause `schedule`"),
        // A `critical` binds to one team: in a combined construct's loop too (it was
        // modelled as excluding the whole league, and `n++` under it "proved" race-free).
        (
            "openmp_league_loop_critical.c",
            6,
            "`critical` inside a `teams` region",
        ),
        (
            "openmp_teams_distribute_critical.c",
            6,
            "`critical` inside a `teams` region",
        ),
        (
            "openmp_teams_critical.c",
            5,
            "`critical` inside a `teams` region",
        ),
        (
            "openmp_teams_thread_num.c",
            5,
            "calling an OpenMP runtime function",
        ),
        (
            "openmp_teams_parallel.c",
            5,
            "`parallel for` inside a `teams` region",
        ),
        (
            "openmp_distribute_alone.c",
            5,
            "`distribute` outside a `teams` region",
        ),
    ]);
}

/// Each program of `tests/data/unsupported` (file, line, what the error says) is refused
/// there with exit status 2.
fn refused(cases: &[(&str, u32, &str)]) {
    for (file, line, says) in cases {
        let (code, _, err) = ladr(&[&format!("tests/data/unsupported/{file}")]);
        assert_eq!(code, 2, "{err}");
        assert!(err.contains(&format!("{file}:{line}")), "{err}");
        assert!(err.contains(says), "{err}");
    }
}
