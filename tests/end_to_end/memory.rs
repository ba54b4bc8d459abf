//! What memory an access touches and how library functions are modelled (issues 16 and
//! 27): allocations of computed or symbolic size, the memory both accesses of a race touch,
//! timed waits, opaque library objects, relaxed atomics, bit-fields, byte ranges of library
//! calls, libc's hidden state, and backward gotos.

use super::checked::{checked, checked_all};
use super::{free, ladr, racy};

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

/// An acquire orders only what follows a release: a spin lock taken with an acquiring
/// test-and-set and given back by a relaxed store orders nothing, so the two threads'
/// `total += 1` race ("no race" before: every acquire ended the second context's checks);
/// given back by a releasing store it is a lock.
#[test]
fn an_acquire_without_a_release_orders_nothing() {
    racy("tas_relaxed_unlock_racy.c", (7, 7));
    free("tas_relaxed_unlock_free.c");
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

/// `strdup` of a string reached through a pointer (issue 33, the sync engine of
/// pcloudcc-lneely: `strdup(data->str1)`): ladr's model copies the first 16 characters
/// into an object of 128 bytes (a `heap-size` cut). Before, CBMC's model looped over the
/// characters of a string whose pointer symbolic execution could not pin down and never
/// finished its symbolic execution (no answer within the time limit).
#[test]
fn strdup_of_a_string_behind_a_pointer() {
    racy("strdup_racy.c", (15, 22));
    free("strdup_free.c");
    let c = checked("strdup_free.c");
    assert!(c.json.contains("heap-size"), "{}", c.json);
}

/// `memcmp` of a length read through a pointer to one of two objects (issue 33, thmap's key
/// comparison): ladr's model compares the first 16 bytes (any result past them). Before,
/// CBMC's model looped over the bytes without bound and its symbolic execution never ended
/// (no answer within the time limit, on 11 visible statements).
#[test]
fn memcmp_of_a_length_behind_a_pointer() {
    racy("memcmp_racy.c", (12, 19));
    free("memcmp_free.c");
}

/// `mmap` of a length read from a global (issue 33, rpmalloc's spans): ladr's model maps
/// one page, 4096 bytes, zeroed when anonymous (a `heap-size` cut beyond). Before, CBMC's
/// model made an object of the symbolic length in each round's run of the thread, and CBMC
/// 6.6 aborted on an invariant (goto_symex_state.cpp, "Type of renamed expr should be the same as
/// operands for if_exprt") when shadow memory was set on the merged pointer.
#[test]
fn mmap_of_a_length_read_from_a_global() {
    racy("mmap_racy.c", (14, 14));
    free("mmap_free.c");
    let c = checked("mmap_free.c");
    assert!(c.json.contains("heap-size"), "{}", c.json);
}
