//! Every fixed name of the sequential program and of the pthread model, in one place.
//!
//! The passes that build the sequential program (`threads`, `visible`, `race`, `lazy`), the
//! model (`model/pthread.c`) and the readers of CBMC's counterexample (`ladr-check`,
//! `ladr-report`) agree on these names; none of them spells a `__ladr_` name itself. Fresh
//! names (renamed locals, temporaries, labels) come from `ladr_c::syntax::names::Names`,
//! whose reserved prefix [`PREFIX`] these share, so no user name can clash with them.
//!
//! The back end's own builtins (`__CPROVER_*`) and SV-COMP's environment functions
//! (`__VERIFIER_*`) the passes generate or recognise are here too.

use ladr_c::syntax::build::{ident, index, int};
pub use ladr_c::syntax::names::PREFIX;
use lang_c::ast::Expression;
use lang_c::span::{Node, Span};

// ---- Slots -------------------------------------------------------------------------------

/// Prefix of the slot functions `__ladr_thread<k>`.
const SLOT_FUNCTION: &str = "__ladr_thread";

/// Name of slot `k`'s function.
pub fn slot_function(k: usize) -> String {
    format!("{SLOT_FUNCTION}{k}")
}

/// The slot whose function is `name` (where all of the user's code is, after `inline`).
pub fn slot_of_function(name: &str) -> Option<usize> {
    let k = name.strip_prefix(SLOT_FUNCTION)?;
    if k.is_empty() || !k.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    k.parse().ok()
}

/// Is `name` the function of a slot?
pub fn is_slot_function(name: &str) -> bool {
    slot_of_function(name).is_some()
}

/// Name of slot `k`'s end label (just before its exit).
pub fn end_label(k: usize) -> String {
    format!("__ladr_end{k}")
}

/// Label of visible statement `label` of slot `slot` (a target of the forward-jump rule).
pub fn visible_label(slot: usize, label: u32) -> String {
    format!("__ladr_l{slot}_{label}")
}

// ---- The pthread model (`model/pthread.c`) -------------------------------------------------

/// Prefix of the model's functions: `pthread_mutex_lock` is modelled by
/// `__ladr_pthread_mutex_lock`.
const MODEL_FUNCTION: &str = PREFIX;

/// The model's function for the library function `f` (`pthread_mutex_lock` →
/// `__ladr_pthread_mutex_lock`, `malloc` → `__ladr_malloc`).
pub fn model_function(f: &str) -> String {
    format!("{MODEL_FUNCTION}{f}")
}

/// The library function a model function stands for (`__ladr_pthread_mutex_lock` →
/// `pthread_mutex_lock`); other names unchanged.
pub fn modelled_function(name: &str) -> &str {
    name.strip_prefix(MODEL_FUNCTION).unwrap_or(name)
}

/// The model function giving the result of a function without a body that returns a
/// pointer to an object (`AssumedResult::FreshObject`).
pub const FRESH_OBJECT: &str = "__ladr_fresh_object";

/// The model function giving the result of a function without a body that returns
/// `void *`: a null pointer or a fresh object of any size (`AssumedResult::FreshObject`).
pub const FRESH_BLOCK: &str = "__ladr_fresh_block";

/// The model function that allocates the memory of a matrix whose rows have a variable
/// length, kept as its lengths and a pointer (`threads/vla.rs`).
pub const VLA_MEMORY: &str = "__ladr_vla";

/// Is `name` a function of the model rather than a slot function?
pub fn is_model_function(name: &str) -> bool {
    name.starts_with(MODEL_FUNCTION) && !is_slot_function(name)
}

/// Is `name` a model function for a pthread function (`__ladr_pthread_*`)?
pub fn is_model_pthread_function(name: &str) -> bool {
    name.starts_with("__ladr_pthread_")
}

/// Each slot's start-routine argument (`void *__ladr_arg[N]`).
pub const ARG: &str = "__ladr_arg";
/// Each slot's return value (`void *__ladr_retval[N]`), read by `pthread_join`.
pub const RETVAL: &str = "__ladr_retval";
/// The model function that makes `main`'s command line.
pub const MAIN_ARGS: &str = "__ladr_main_args";
/// The model's `argv` array.
pub const ARGV: &str = "__ladr_argv";
/// The model's table of thread-specific values (`__ladr_specific[MAX_SLOTS][MAX_KEYS]`).
pub const SPECIFIC: &str = "__ladr_specific";

// ---- Scheduler (`lazy`) --------------------------------------------------------------------

/// Each slot's next visible statement (`unsigned __ladr_pc[N]`).
pub const PC: &str = "__ladr_pc";
/// Each slot's end of the current context (`unsigned __ladr_cs[N]`).
pub const CS: &str = "__ladr_cs";
/// Whether each slot has been created (`_Bool __ladr_active[N]`).
pub const ACTIVE: &str = "__ladr_active";
/// The number of slots.
pub const NSLOTS: &str = "__ladr_nslots";
/// Each slot's number of visible statements.
pub const SIZE: &str = "__ladr_size";
/// The context the driver runs (r·N + t), for the report's round numbers.
pub const CONTEXT: &str = "__ladr_context";
/// The driver's local copy of `dr` flags per context.
pub const DRCX: &str = "__ladr_drcx";

/// Slot `slot`'s element of the per-slot array `array` (`__ladr_pc[2]`).
pub fn per_slot(array: &str, slot: usize, span: Span) -> Node<Expression> {
    index(ident(array, span), int(slot as u64, span), span)
}

// ---- Race flags (`race`, `lazy`) ------------------------------------------------------------

/// C1 has been chosen (its last statement is next).
pub const DR0: &str = "__ladr_dr0";
/// C1 has ended: the next context's first statement is C2's.
pub const DR1: &str = "__ladr_dr1";
/// C2 has run: the check is over.
pub const DR2: &str = "__ladr_dr2";
/// The race flags in the order they are declared.
pub const DR_FLAGS: [&str; 3] = [DR0, DR1, DR2];
/// The statement is in C1 (it may set flags).
pub const P1: &str = "__ladr_P1";
/// The statement is in C2, before any of its statements that may synchronise.
pub const P2: &str = "__ladr_P2";
/// A data race was detected.
pub const DRD: &str = "__ladr_drd";
/// The vacuity query's flag (`Options::vacuity_query`): `main` created a thread.
pub const THREAD_STARTED: &str = "__ladr_thread_started";
/// Which access of C1 records its address and flags (an arbitrary site id, chosen once by the driver):
/// only the access with that id. CBMC tries every id, so every access of C1 is tried as
/// C1's, and the access a race names is exactly the one whose flag C2 found (when every
/// access of a statement set flags, a race was reported on the statement's last one:
/// `return x + y;` racing on `x` was reported on `y`).
pub const C1_PICK: &str = "__ladr_c1_pick";
/// Set once C2 ran a statement that may synchronise (an acquire: a lock, a join, a
/// non-relaxed atomic operation, any call ladr does not know to be free of
/// synchronisation): C2's later accesses are no longer checked against C1's flags.
pub const C2_SYNC: &str = "__ladr_c2_sync";
/// Set by a statement that may be a release once C2 has begun (`dr1`): only after one can
/// an acquire order C2's later accesses after C1's access (C1 ends before any release of
/// its own, [`C2_SYNC`]).
pub const RELEASED: &str = "__ladr_released";
/// The site of the access of C1 that set flags (or freed, [`C1_FREE`]).
pub const C1_SITE: &str = "__ladr_c1_site";
/// Its exclusion key (`Options::exclude`; declared and set only when some pair of accesses
/// is excluded): 0, or the number of the excluded access whose span the site has, so that
/// C2's check can skip an excluded pair.
pub const C1_KEY: &str = "__ladr_c1_key";
/// The block C1's access frees (`free`, `realloc`; declared only in programs that
/// free): a pointer, not a shadow flag, since setting a flag on a heap block of symbolic
/// size is costly for CBMC. C2's accesses through pointers check `same_object` with it.
pub const C1_FREE: &str = "__ladr_c1_free";
/// CBMC's test that two pointers point into one object.
pub const SAME_OBJECT: &str = "__CPROVER_same_object";
/// The racing pair, set when P2 code finds the race: C1's access and C2's.
pub const FIRST_SITE: &str = "__ladr_first_site";
pub const SECOND_SITE: &str = "__ladr_second_site";

/// Prefix of the objects that stand for the hidden static state of MT-Unsafe C library
/// functions (`ladr_seq::model::library::libc_state`): `__ladr_libc_strtok`.
const LIBC_STATE: &str = "__ladr_libc_";

/// The object standing for the hidden state a group of C library functions shares
/// (`strtok` → `__ladr_libc_strtok`, `rand`/`srand` → `__ladr_libc_rand`): a `char`
/// that `race` declares and instruments at each call, never read nor written otherwise.
pub fn libc_state(group: &str) -> String {
    format!("{LIBC_STATE}{group}")
}

/// The group whose state object `name` is ([`libc_state`]).
pub fn libc_state_group(name: &str) -> Option<&str> {
    name.strip_prefix(LIBC_STATE)
}

/// The one monitored address (docs/decisions/one-address.md): the access of C1 that
/// [`C1_PICK`] picks records where it accessed, and C2's accesses compare their bytes with
/// it. `C1_ADDR` is a pointer into the object (`void *`), `C1_BEGIN`/`C1_END` the byte
/// offsets `[begin, end)` of the access in it (`long long`).
pub const C1_ADDR: &str = "__ladr_c1_addr";
pub const C1_BEGIN: &str = "__ladr_c1_begin";
pub const C1_END: &str = "__ladr_c1_end";
/// The address of the access whose flag code runs, computed once in front of it (a `void *`
/// and its bytes `[begin, end)` in its object, `long long`) so that the code tests and
/// records these instead of repeating the address expression (`race`'s `shadow::Place`).
/// Only an address that is not a variable's (`&x`, `&s.f`) gets them.
pub const AT: &str = "__ladr_at";
pub const AT_BEGIN: &str = "__ladr_at_begin";
pub const AT_END: &str = "__ladr_at_end";
/// What C1's picked access did at [`C1_ADDR`]: a write (atomic or not), a write outside an
/// atomic access, a plain read of a named object.
pub const C1_W: &str = "__ladr_c1_w";
pub const C1_WNA: &str = "__ladr_c1_wna";
pub const C1_R: &str = "__ladr_c1_r";

// ---- Back-end builtins (CBMC) ---------------------------------------------------------------

/// Prefix of every CBMC builtin.
pub const CPROVER_PREFIX: &str = "__CPROVER_";
pub const ASSUME: &str = "__CPROVER_assume";
pub const ASSERT: &str = "__CPROVER_assert";
pub const HAVOC: &str = "__CPROVER_havoc_object";
pub const R_OK: &str = "__CPROVER_r_ok";
pub const W_OK: &str = "__CPROVER_w_ok";
pub const POINTER_OFFSET: &str = "__CPROVER_POINTER_OFFSET";
pub const OBJECT_SIZE: &str = "__CPROVER_OBJECT_SIZE";
/// GCC's builtins behind `<stdarg.h>`'s `va_start`, `va_end` and `va_copy` (`va_arg` is
/// syntax: `__builtin_va_arg`), which `inline` lowers onto an inlined call's arguments.
pub const VA_START: &str = "__builtin_va_start";
pub const VA_END: &str = "__builtin_va_end";
pub const VA_COPY: &str = "__builtin_va_copy";
/// GCC's type behind `va_list`.
pub const VA_LIST: &str = "__builtin_va_list";

/// Builtins that only inspect pointers: a call of one is no side effect for the normal form
/// (N2, N3), so `unwind`'s fill-loop guard may test them in an `if` condition.
pub const PURE_BUILTINS: [&str; 4] = [R_OK, W_OK, POINTER_OFFSET, OBJECT_SIZE];

// ---- SV-COMP environment --------------------------------------------------------------------

pub const VERIFIER_ASSUME: &str = "__VERIFIER_assume";
pub const VERIFIER_ERROR: &str = "__VERIFIER_error";
pub const ATOMIC_BEGIN: &str = "__VERIFIER_atomic_begin";
pub const ATOMIC_END: &str = "__VERIFIER_atomic_end";
/// Prefix of functions whose bodies run atomically.
pub const ATOMIC_PREFIX: &str = "__VERIFIER_atomic_";
/// Prefix of the nondeterministic-value functions.
pub const NONDET_PREFIX: &str = "__VERIFIER_nondet_";
/// The nondeterministic `unsigned int` the driver draws context ends from.
pub const NONDET_UINT: &str = "__VERIFIER_nondet_uint";
/// Declared by the pthread model; `threads` draws whether an allocation fails with it.
pub const NONDET_BOOL: &str = "__VERIFIER_nondet_bool";

// ---- C11 <threads.h> ------------------------------------------------------------------------

/// Every function of C11's `<threads.h>` ladr models, with the POSIX function it becomes
/// (`normalise` maps each call to its counterpart; the answer finds the user's call of a
/// lock function by either name). `thrd_sleep` is not here: it synchronises nothing and is
/// a library call like `nanosleep`.
pub const C11_THREADS: &[(&str, &str)] = &[
    ("thrd_create", "pthread_create"),
    ("thrd_join", "pthread_join"),
    ("thrd_detach", "pthread_detach"),
    ("thrd_exit", "pthread_exit"),
    ("thrd_current", "pthread_self"),
    ("thrd_equal", "pthread_equal"),
    ("thrd_yield", "pthread_yield"),
    ("mtx_init", "pthread_mutex_init"),
    ("mtx_lock", "pthread_mutex_lock"),
    ("mtx_trylock", "pthread_mutex_trylock"),
    ("mtx_timedlock", "pthread_mutex_timedlock"),
    ("mtx_unlock", "pthread_mutex_unlock"),
    ("mtx_destroy", "pthread_mutex_destroy"),
    ("cnd_init", "pthread_cond_init"),
    ("cnd_signal", "pthread_cond_signal"),
    ("cnd_broadcast", "pthread_cond_broadcast"),
    ("cnd_wait", "pthread_cond_wait"),
    ("cnd_timedwait", "pthread_cond_timedwait"),
    ("cnd_destroy", "pthread_cond_destroy"),
    ("call_once", "pthread_once"),
    ("tss_create", "pthread_key_create"),
    ("tss_get", "pthread_getspecific"),
    ("tss_set", "pthread_setspecific"),
    ("tss_delete", "pthread_key_delete"),
];

/// The POSIX counterpart of the C11 thread function `f` ([`C11_THREADS`]).
pub fn c11_counterpart(f: &str) -> Option<&'static str> {
    C11_THREADS.iter().find(|(c, _)| *c == f).map(|(_, p)| *p)
}

/// The C11 thread functions whose counterpart is the POSIX function `f`.
pub fn c11_names_of(f: &str) -> impl Iterator<Item = &'static str> + '_ {
    C11_THREADS
        .iter()
        .filter(move |(_, p)| *p == f)
        .map(|(c, _)| *c)
}

/// The results of C11 thread functions (C11 7.26.1), as the enumerators of `<threads.h>`
/// name them, with glibc's values for a program that uses them without the header.
pub const THRD_SUCCESS: (&str, u64) = ("thrd_success", 0);
pub const THRD_BUSY: (&str, u64) = ("thrd_busy", 1);
pub const THRD_ERROR: (&str, u64) = ("thrd_error", 2);
pub const THRD_TIMEDOUT: (&str, u64) = ("thrd_timedout", 4);
/// `mtx_init`'s type bit of a recursive mutex.
pub const MTX_RECURSIVE: (&str, u64) = ("mtx_recursive", 1);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slot_functions_round_trip() {
        assert_eq!(slot_of_function(&slot_function(12)), Some(12));
        assert_eq!(slot_of_function("__ladr_thread"), None);
        assert_eq!(slot_of_function("__ladr_threadx"), None);
        assert!(is_model_function(&model_function("pthread_mutex_lock")));
        assert!(!is_model_function(&slot_function(0)));
        assert_eq!(modelled_function("__ladr_malloc"), "malloc");
        assert_eq!(modelled_function("free"), "free");
    }
}
