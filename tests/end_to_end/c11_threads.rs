//! C11 `<threads.h>` (issue 27 item 4): threads, mutexes (plain, recursive, trylock),
//! condition variables, `call_once` and thread-specific storage, checked as their POSIX
//! counterparts. Before, a program using them was refused ("the C11 <threads.h> function
//! `thrd_create`"), and earlier still "no race, the program creates no thread".

use super::checked::checked;
use super::{free, racy};

/// Two `thrd_create` threads incrementing a counter; the twin takes a `mtx_t` around it
/// and reads the exit values through `thrd_join(t, &r)` and `thrd_join(t, p)`.
#[test]
fn threads_and_a_mutex() {
    racy("c11_threads_racy.c", (5, 5));
    free("c11_threads_free.c");
    let c = checked("c11_threads_racy.c");
    let threads = c.json_value["races"][0]["accesses"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| {
            a["thread"]["function"]
                .as_str()
                .unwrap_or_default()
                .to_string()
        })
        .collect::<Vec<_>>();
    assert!(threads.iter().all(|r| r == "worker"), "{}", c.json);
}

/// `mtx_trylock` returns `thrd_busy` when another thread holds the mutex (the busy branch
/// writes without it: a race); a recursive mutex (`mtx_plain | mtx_recursive`) is locked
/// twice by its owner without blocking.
#[test]
fn trylock_and_recursive_mutex() {
    racy("c11_mutex_kinds_racy.c", (6, 9));
    free("c11_mutex_kinds_free.c");
    let c = checked("c11_mutex_kinds_racy.c");
    assert!(c.text.contains("holds `plain` (mutex)"), "{}", c.text);
}

/// A hand-off through `cnd_wait`/`cnd_signal`: the producer's write after the signal races
/// with the consumer's read; without it, the mutex orders them.
#[test]
fn condition_variable_handoff() {
    racy("c11_cnd_racy.c", (11, 19));
    free("c11_cnd_free.c");
}

/// `call_once` runs the initialiser once, and every caller returns after it finished.
#[test]
fn call_once_initialises_once() {
    racy("c11_once_racy.c", (12, 12));
    free("c11_once_free.c");
}

/// `tss_set`/`tss_get`: each thread's own value; two threads given the same object race on
/// it, each its own does not.
#[test]
fn thread_specific_storage() {
    racy("c11_tss_racy.c", (10, 10));
    free("c11_tss_free.c");
}
