//! Calls: function pointers and start routines passed around, `pthread_once`, recursive
//! mutexes, string and variadic functions, key destructors, `--malloc-may-fail`, invalid C
//! ladr used to write, and the constants `constprop` folds.

use super::checked::{self, checked, checked_all};
use super::racefree::translated;
use super::{assert_racy, free, gutter, ladr, racy, racy_one_of, report_formats};

/// A callback list read by another thread: the call through `h->fn` reaches the callback
/// installed by a function that only a file-scope pointer reaches, and not a function
/// whose address only never-called code takes (so that function's loops are not copied
/// into the caller).
#[test]
fn function_pointer_candidates_come_from_reachable_code() {
    racy("fn_pointer_reach_racy.c", (3, 27));
    free("fn_pointer_reach_free.c");
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

/// `pthread_once` with its control and routine reached through a struct (issue 27:
/// "pthread_once with a routine that is not a function defined in the program"): the
/// routine is called through the pointer, once; a thread that skips `pthread_once` races.
#[test]
fn pthread_once_through_pointers() {
    racy("once_pointer_racy.c", (8, 17));
    free("once_pointer_free.c");
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

/// One finding per bug (issue 32): the unlocked `if (s.pushes > s.peak) s.peak = s.pushes;`
/// makes several racing pairs, all of one cause — one diagnostic with the other pairs
/// folded under it, one group in JSON and SARIF (which keep every pair); the twin with the
/// statement under the lock has none.
#[test]
fn the_races_of_one_cause_are_one_finding() {
    let all = checked_all("one_cause_racy.c");
    let races = all.json_value["races"].as_array().unwrap();
    assert!(races.len() >= 2, "{}", all.json);
    assert!(races.iter().all(|r| r["group"] == 1), "{}", all.json);
    let out = &all.text;
    assert_eq!(out.matches("error[data-race]").count(), 1, "{out}");
    assert_eq!(out.matches("interleaving:").count(), 1, "{out}");
    let folded = out.matches("= the same cause: race on `s.").count();
    assert_eq!(folded, races.len() - 1, "{out}");
    assert!(
        out.contains(&format!("({} racing pairs of one cause)", races.len())),
        "{out}"
    );
    let run = report_formats::check_sarif(&all.sarif);
    let results = run["results"].as_array().unwrap();
    assert_eq!(results.len(), races.len());
    assert!(results.iter().all(|r| r["properties"]["group"] == 1));
    // Independent races stay apart.
    let two = checked_all("two_races_racy.c");
    let groups: Vec<&serde_json::Value> = two.json_value["races"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| &r["group"])
        .collect();
    assert_eq!(groups, [1, 2]);
    free("one_cause_free.c");
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

/// A destructor that sets its key's value again (an allocator's thread finalizer clears
/// it, refused before as unsupported): it runs once, and an execution in which it leaves a
/// value set, where POSIX would run the destructors again, is cut (`key-destructors`).
#[test]
fn key_destructor_that_resets_its_value() {
    racy("key_destructor_resets_racy.c", (7, 19));
    free("key_destructor_resets_free.c");
}

/// A destructor held in a pointer (issue 27 item 14: `ops->destroy`, refused before as
/// "neither a function defined in the program nor `free`"): the key's creation compares
/// the pointer with each function whose address is taken, and the thread's exit runs the
/// one it holds (the counting one races, the plain one does not).
#[test]
fn key_destructor_through_a_pointer() {
    racy("key_destructor_member_racy.c", (6, 6));
    free("key_destructor_member_free.c");
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
    let mut pairs = super::races_lines(&v);
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

/// `setjmp`/`longjmp` (issue 27, refused before): a `longjmp` in a helper returns to the
/// `setjmp` of the thread that called it, with its value, and the code after it runs (the
/// write races unless the mutex is held); `sigsetjmp`/`siglongjmp` jumping back make a loop.
#[test]
fn setjmp_and_longjmp_are_jumps() {
    racy("setjmp_racy.c", (12, 12));
    free("setjmp_free.c");
    racy("sigsetjmp_racy.c", (9, 9));
}

/// `pthread_cancel` (issue 27, refused before): deferred cancellation acts at cancellation
/// points and runs the cleanup handlers. A thread cancelled while it waits on a condition
/// variable takes the mutex again and runs its handler (which writes `cleaned`), so `main`'s
/// read before the join races with it, after the join not; a join that only cancellation
/// lets return (the thread waits on a semaphore nobody posts) lets `main` go on to read what
/// another, unjoined thread writes.
#[test]
fn cancellation_points_and_cleanup_handlers() {
    racy("cancel_cond_wait_racy.c", (6, 22));
    free("cancel_cond_wait_free.c");
    racy("cancel_join_racy.c", (10, 20));
    free("cancel_join_free.c");
    // `printf` may be a cancellation point (POSIX's optional ones): a request may be acted
    // on there, running the handler that writes `flag` while `main` reads it.
    racy("cancel_printf_racy.c", (4, 15));
    free("cancel_printf_free.c");
    // `pthread_exit` runs the cleanup handlers too (glibc's `pthread_cleanup_push`), in a
    // program that cancels nothing.
    racy("cleanup_exit_racy.c", (3, 13));
    free("cleanup_exit_free.c");
}

/// A timed condition wait may return at its limit (`ETIMEDOUT`, the mutex taken again):
/// the write on that branch races with `main`'s read before the join. It returned 0 only,
/// so the branch was never explored ("no race").
#[test]
fn timed_condition_waits_may_time_out() {
    racy("cond_timedwait_racy.c", (13, 19));
    free("cond_timedwait_free.c");
}
