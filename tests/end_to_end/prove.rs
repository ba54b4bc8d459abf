//! The static race analysis in the check (issue 30): for each of its rules a race-free
//! program it proves — answered "no data race in any execution" without CBMC, `"proved":
//! true`, SV-COMP `true` — and its racy twin, which it does not prove and the bounded
//! search finds racing.

use super::{free, ladr_proving, racy};
use std::path::Path;

/// (rule, race-free program, racy twin, the twin's racing lines)
const PAIRS: &[(&str, &str, &str, (u32, u32))] = &[
    ("lock", "mutex_free.c", "mutex_racy.c", (6, 10)),
    ("lock", "lockset_free.c", "lockset_racy.c", (6, 17)),
    ("lock", "join_all_free.c", "join_all_racy.c", (6, 16)),
    (
        "atomic-section",
        "atomic_section_free.c",
        "atomic_section_racy.c",
        (7, 12),
    ),
    (
        "atomic",
        "atomic_builtin_free.c",
        "atomic_builtin_racy.c",
        (3, 8),
    ),
    ("read-only", "read_only_free.c", "read_only_racy.c", (6, 10)),
    (
        "one-thread",
        "global_joined_free.c",
        "global_racy.c",
        (3, 4),
    ),
    ("lock", "heap_arg_free.c", "heap_arg_racy.c", (4, 4)),
    (
        "per-pair",
        "struct_lock_free.c",
        "struct_lock_racy.c",
        (13, 23),
    ),
    ("disjoint", "fields_free.c", "fields_racy.c", (7, 14)),
    ("lock", "funptr_free.c", "funptr_racy.c", (9, 9)),
    (
        "one-thread",
        "create_checked_free.c",
        "create_checked_racy.c",
        (4, 11),
    ),
    (
        "rwlock",
        "prove_rwlock_free.c",
        "prove_rwlock_racy.c",
        (7, 16),
    ),
    (
        "lock",
        "prove_semaphore_free.c",
        "prove_semaphore_racy.c",
        (8, 8),
    ),
    (
        "lock",
        "prove_bound_loop_free.c",
        "prove_bound_loop_racy.c",
        (9, 22),
    ),
    (
        "one-thread",
        "prove_dead_label_free.c",
        "prove_dead_label_racy.c",
        (7, 17),
    ),
    (
        "lock",
        "prove_solo_call_free.c",
        "prove_solo_call_racy.c",
        (6, 6),
    ),
    (
        "lock",
        "prove_owned_block_free.c",
        "prove_owned_block_racy.c",
        (15, 17),
    ),
    (
        "lock",
        "prove_user_lock_free.c",
        "prove_user_lock_racy.c",
        (22, 29),
    ),
    (
        "element-lock",
        "prove_element_lock_free.c",
        "prove_element_lock_racy.c",
        (14, 23),
    ),
    (
        "lock",
        "prove_library_call_free.c",
        "prove_library_call_racy.c",
        (18, 18),
    ),
    (
        "lock",
        "prove_spin_hint_free.c",
        "prove_spin_hint_racy.c",
        (9, 9),
    ),
    (
        "per-pair",
        "prove_once_free.c",
        "prove_once_racy.c",
        (9, 13),
    ),
    (
        "disjoint-index",
        "prove_disjoint_index_free.c",
        "prove_disjoint_index_racy.c",
        (8, 8),
    ),
    (
        "chunks",
        "prove_chunks_free.c",
        "prove_chunks_racy.c",
        (16, 16),
    ),
    (
        "one-thread",
        "prove_heap_site_free.c",
        "prove_heap_site_racy.c",
        (12, 12),
    ),
    (
        "read-only",
        "prove_fresh_block_free.c",
        "prove_fresh_block_racy.c",
        (12, 31),
    ),
    (
        "lock",
        "prove_cond_lock_free.c",
        "prove_cond_lock_racy.c",
        (10, 22),
    ),
    (
        "lock",
        "prove_lockptr_free.c",
        "prove_lockptr_racy.c",
        (12, 12),
    ),
    (
        "per-pair",
        "prove_fields_free.c",
        "prove_fields_racy.c",
        (15, 23),
    ),
    (
        "lock",
        "prove_literal_free.c",
        "prove_literal_racy.c",
        (10, 10),
    ),
    (
        "barrier",
        "prove_barrier_free.c",
        "prove_barrier_racy.c",
        (9, 15),
    ),
    (
        "worksharing",
        "prove_worksharing_free.c",
        "prove_worksharing_racy.c",
        (8, 8),
    ),
    (
        "worksharing",
        "omp_prove_local_free.c",
        "omp_prove_local_racy.c",
        (10, 10),
    ),
    // A helper's heap array through the local every thread read alike (`Step::Base`).
    (
        "worksharing",
        "omp_heap_local_free.c",
        "omp_heap_local_racy.c",
        (11, 11),
    ),
    // Rows `i` and `i - 1` of the `i` every thread of the team read alike.
    (
        "invariant-index",
        "omp_invariant_row_free.c",
        "omp_invariant_row_racy.c",
        (10, 10),
    ),
    // `collapse(2)` over rows of variable length: counts of one value for every thread.
    (
        "worksharing",
        "omp_collapse_vla_free.c",
        "omp_collapse_vla_racy.c",
        (10, 10),
    ),
    // A team under an `if` is joined inside it: the region after it starts alone.
    (
        "worksharing",
        "omp_if_team_free.c",
        "omp_if_team_racy.c",
        (9, 9),
    ),
];

fn proof(file: &str) -> ladr_check::ProofAnswer {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/e2e")
        .join(file);
    let parsed = ladr_c::frontend::load(&path, &ladr_c::frontend::Options::default()).unwrap();
    let request = ladr_check::Request::proof_only(ladr_ir::program::Options::default());
    let answer =
        ladr_check::check(&parsed, &request, &|_, _: &ladr_ir::program::Options| {}).unwrap();
    answer.proof.expect("the analysis ran")
}

#[test]
fn each_rule_proves_a_race_free_program_and_leaves_its_racy_twin_to_cbmc() {
    for (rule, free_file, twin, lines) in PAIRS {
        let p = proof(free_file);
        assert!(
            p.proved,
            "{free_file}: {:#?}",
            ladr_report::proof::lines(&p)
        );
        assert!(
            p.objects.iter().any(|o| o.rule == *rule),
            "{free_file}: no object proved by {rule}: {:#?}",
            ladr_report::proof::lines(&p)
        );
        let path = format!("tests/e2e/{free_file}");
        let (code, out, err) = ladr_proving(&[&path, "--explain-proof"]);
        assert_eq!(code, 0, "{out}{err}");
        assert!(
            out.starts_with("no data race in any execution (proved by the static analysis: "),
            "{out}"
        );
        assert!(out.contains("safe `"), "{out}");
        let (code, json, _) = ladr_proving(&[&path, "--format", "json"]);
        assert_eq!(code, 0);
        let v: serde_json::Value = serde_json::from_str(&json).unwrap();
        assert_eq!(v["proved"], true, "{json}");
        assert_eq!(v["verdict"], "no-race", "{json}");
        assert_eq!(v["stats"]["cbmc_s"], 0.0, "{json}");

        let q = proof(twin);
        assert!(
            !q.proved,
            "{twin} is racy but proved: {:#?}",
            ladr_report::proof::lines(&q)
        );
        assert!(
            q.objects.iter().any(|o| !o.safe),
            "{twin}: {:#?}",
            ladr_report::proof::lines(&q)
        );
        racy(twin, *lines);
        // The bounded search agrees (the library's check runs it unless asked to prove).
        free(free_file);
    }
}

/// `free` is proved; its twin `racy` is not, and races on `lines` (programs whose bounded
/// check of the free one would say "unknown": their loops' counts are not constants).
fn proved_with_racy_twin(free: &str, racy_twin: &str, lines: (u32, u32)) {
    let p = proof(free);
    assert!(p.proved, "{free}: {:#?}", ladr_report::proof::lines(&p));
    let q = proof(racy_twin);
    assert!(
        !q.proved,
        "{racy_twin}: {:#?}",
        ladr_report::proof::lines(&q)
    );
    racy(racy_twin, lines);
}

/// A doacross nest (`ordered(2)`): its inner loop's variable, declared in `main`, is
/// private to each iteration as OpenMP makes it, so `a[i][j]` is each iteration's own
/// element (proved, as DataRaceBench's DRB094); its twin reads the previous row's element
/// before its sinks wait and races.
#[test]
fn doacross_nest_iterations_are_proved_disjoint() {
    proved_with_racy_twin("omp_doacross2_free.c", "omp_doacross2_racy.c", (8, 8));
}

/// Rows of variable length (`double b[n][m]`): the region's loop bound `m` and the rows'
/// length are one value of `main`'s `m` (prove/values.rs), so `b[i][j]` and
/// `b[i - 1][j - 1]` of `j < m` stay within their rows (DataRaceBench's DRB054); its twin
/// reads `b[i - 1][j + 1]`, at `j = m - 1` the next row's first element, and races.
#[test]
fn variable_rows_bounded_by_their_length_are_proved() {
    proved_with_racy_twin("omp_vla_rows_free.c", "omp_vla_rows_racy.c", (10, 10));
}

/// A region in a function `main` calls once (spliced), its inner loop to `n - 1` with `n`
/// the parameter bound to `main`'s constant 2: `c2` stays within rows of 2. Its twin
/// writes `A[c1][c2 + 1]`, at `c2 = 1` the next row's first element, which the next
/// iteration reads.
#[test]
fn loop_bounds_through_a_spliced_parameter_are_proved() {
    proved_with_racy_twin("omp_param_bound_free.c", "omp_param_bound_racy.c", (9, 9));
}

/// `--no-prove` checks a race-free program within the bounds, as before: `"proved": false`.
#[test]
fn no_prove_gives_the_bounded_answer() {
    let (code, json, err) =
        ladr_proving(&["tests/e2e/mutex_free.c", "--no-prove", "--format", "json"]);
    assert_eq!(code, 0, "{json}{err}");
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(v["proved"], false, "{json}");
    assert_eq!(v["verdict"], "no-race", "{json}");
}

/// SV-COMP mode answers `true` for a proved program at once.
#[test]
fn svcomp_mode_answers_true_for_a_proved_program() {
    let dir = tempfile::tempdir().unwrap();
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/e2e/mutex_free.c");
    std::fs::copy(&src, dir.path().join("t.c")).unwrap();
    std::fs::write(
        dir.path().join("t.yml"),
        "format_version: '2.0'\ninput_files: 't.c'\nproperties:\n  - property_file: \
         ../properties/no-data-race.prp\n    expected_verdict: true\noptions:\n  language: C\n  \
         data_model: LP64\n",
    )
    .unwrap();
    let prp = dir.path().join("no-data-race.prp");
    std::fs::write(&prp, "CHECK( init(main()), LTL(G ! data-race) )\n").unwrap();
    let yml = dir.path().join("t.yml");
    let (code, out, err) = ladr_proving(&[
        "--svcomp",
        yml.to_str().unwrap(),
        "--property-file",
        prp.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.ends_with("SV-COMP result: true\n"), "{out}");
    assert!(out.contains("no data race in any execution"), "{out}");
}

/// A construct ladr cannot check is refused even where the analysis would prove the
/// program: a proof never turns an "unsupported" into a "no race".
#[test]
fn a_proof_does_not_answer_an_unsupported_program() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("handler.c");
    std::fs::write(
        &file,
        "#include <pthread.h>\n#include <signal.h>\nint x;\nvoid h(int s) { }\n\
         void *w(void *a) { signal(SIGINT, h); return 0; }\n\
         int main(void) { pthread_t t; pthread_create(&t, 0, w, 0); return 0; }\n",
    )
    .unwrap();
    let (code, out, err) = ladr_proving(&[file.to_str().unwrap()]);
    assert_eq!(code, 2, "{out}{err}");
    assert!(err.contains("unsupported"), "{err}");
}

/// PolyBench's shape (DataRaceBench's DRB041, DRB043): arrays from an allocator without a
/// body, `double (*A)[2][2]` passed as `*A` to functions `main` calls once whose inner
/// blocks declare the same names, a time loop of two teams (rows, then columns), loop
/// bounds of `<=`, `c - j` and `?:` of constant values. The proof takes the allocator's
/// results for fresh objects, as the bounded check does, and says so; the twin writes
/// row 0 from every iteration and races.
#[test]
fn polybench_blocks_through_spliced_functions_are_proved() {
    proved_with_racy_twin("omp_heap_rows_free.c", "omp_heap_rows_racy.c", (13, 13));
    let p = proof("omp_heap_rows_free.c");
    assert!(
        p.assumptions.iter().any(|a| a.contains("`alloc_data`")),
        "{:?}",
        p.assumptions
    );
}

/// A wavefront (DataRaceBench's jacobi-2d kernel): rows `3*i - 2*t + d` of the team's
/// shared `t` (`d` in -1..=1) are apart for two iterations (prove/affine.rs), and the
/// inner loop's columns, bounded relative to `t` and `i`, stay in their row; the twin
/// reads the row iteration `i - 1` writes.
#[test]
fn wavefront_rows_of_a_shared_step_are_proved_apart() {
    proved_with_racy_twin("omp_wavefront_free.c", "omp_wavefront_racy.c", (10, 10));
}

/// Indirect accesses through a constant index table into one block seen from two starts
/// (DataRaceBench's DRB052): no two entries equal or 3 apart, so proved (prove/table.rs,
/// prove/origin.rs); the twin's entries 2 and 5 collide through the two starts.
#[test]
fn index_table_entries_that_never_collide_are_proved_apart() {
    proved_with_racy_twin("omp_index_table_free.c", "omp_index_table_racy.c", (15, 16));
}

/// SV-COMP's `pthread-numerical-integration` shape: a global counter only `main` writes, a
/// create loop to `nt` (a copy of `n`) and a join loop to `n`, `main`'s locals declared
/// at its top (their `normalise` havoc takes no address): after the join loop `main`
/// runs alone. The twin joins one thread fewer and races on `area`.
#[test]
fn join_loops_with_a_global_counter_and_a_copied_bound_are_proved() {
    proved_with_racy_twin(
        "prove_global_counter_free.c",
        "prove_global_counter_racy.c",
        (10, 28),
    );
}
