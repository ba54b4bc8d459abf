//! The race-free pre-analysis (`racefree`) on the e2e programs: which accesses it removes
//! from the instrumented program, and that the race of each racy twin is still found.

use super::checked::{self, checked};
use super::{free, ladr, racy, racy_one_of};

/// The lvalues `race` instruments in `tests/e2e/FILE` (as the user wrote them) and the
/// number of visible statements, with or without the race-free pre-analysis.
fn instrumented(file: &str, racefree: bool) -> (Vec<String>, u32) {
    let p = translated(file, racefree);
    let sites = p.sites.iter().skip(1).map(|s| s.expr.clone()).collect();
    (sites, p.visible_statements())
}

/// `tests/e2e/FILE` translated up to the sequential program, with or without `racefree`.
pub(super) fn translated(file: &str, racefree: bool) -> ladr_ir::program::Program {
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

/// Rule 1 and `main`'s assumptions of shared state: before the first `pthread_create` no
/// thread exists, so one there needs no context switch before it (labels there cut `main`
/// into pieces whose crossing jumps make CBMC's symbolic execution exponential); after the
/// joins it keeps one. (An `abort()`'s `assume(0)` is no visible statement anywhere: it is
/// of no shared value, `lazy` stops the thread there.) The race between the two workers is
/// still found.
#[test]
fn racefree_assumptions_before_the_first_create_are_not_visible() {
    racy("solo_assume_racy.c", (7, 7));
    free("solo_assume_free.c");
    let visible_assumes = |racefree: bool| -> Vec<bool> {
        let p = translated("solo_assume_racy.c", racefree);
        let mut created = false;
        let mut out = vec![];
        for it in &p.code[0].items {
            if let ladr_ir::program::Item::Visible { stmt, .. } = it {
                let text = ladr_c::print::statement_to_string(&stmt.node);
                created |= text.contains("pthread_create");
                // The user's assumptions (their reads instrumented), not `race`'s in
                // front of a statement that may synchronise (`assume(!(dr0 && …))`).
                let sync = format!("{}(!({}", ladr_ir::abi::ASSUME, ladr_ir::abi::DR0);
                if text.contains(ladr_ir::abi::ASSUME) && !text.contains(&sync) {
                    out.push(created);
                }
            }
        }
        out
    };
    // Without the pass: the two assumptions before the creates and the one after the
    // joins; with it, the one after the joins only.
    let (all, kept) = (visible_assumes(false), visible_assumes(true));
    assert_eq!(all.iter().filter(|after| !**after).count(), 2, "{all:?}");
    assert!(
        !kept.is_empty() && kept.iter().all(|after| *after),
        "{kept:?}"
    );
    assert_eq!(kept.len(), all.len() - 2);
}

/// Rule 1 and the pthread model: before the first `pthread_create` no thread exists, so a
/// model call there (the set-up loop's `pthread_mutex_init`s) needs no context switch
/// either: a path it blocks has no thread. The mutexes it initialises still order the
/// workers: the twin whose workers take one mutex has no race, the other one races.
#[test]
fn racefree_model_calls_before_the_first_create_are_not_visible() {
    racy("solo_model_calls_racy.c", (8, 8));
    free("solo_model_calls_free.c");
    // Visible model calls of `main` before its first create: the four `pthread_mutex_init`s
    // without the pass, none with it.
    let visible_inits = |racefree: bool| -> usize {
        let p = translated("solo_model_calls_free.c", racefree);
        let mut created = false;
        let mut inits = 0;
        for it in &p.code[0].items {
            if let ladr_ir::program::Item::Visible { stmt, .. } = it {
                let text = ladr_c::print::statement_to_string(&stmt.node);
                created |= text.contains("pthread_create");
                inits += usize::from(!created && text.contains("pthread_mutex_init"));
            }
        }
        inits
    };
    assert_eq!(visible_inits(false), 4);
    assert_eq!(visible_inits(true), 0);
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
    assert_eq!(
        said,
        "CBMC was not run: the program instruments no access (every shared access is \
         race-free)\n"
    );
    assert!(keep.path().join(ladr_cbmc::SEQ_FILE).is_file());
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
