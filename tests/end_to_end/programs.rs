//! Racy programs and their race-free twins: shared globals, arrays, struct fields and heap
//! objects, mutexes, condition variables, atomic sections and C11 atomics, loops and rounds,
//! static and thread-local storage, joins and exit values.

use super::checked::{self, checked};
use super::{free, ladr, racy, racy_one_of};
use std::path::Path;
use std::process::Command;

#[test]
fn global_write_read() {
    racy("global_racy.c", (3, 4));
    free("global_joined_free.c");
}

#[test]
fn mutex() {
    racy("mutex_racy.c", (6, 10));
    free("mutex_free.c");
}

#[test]
fn array_elements() {
    racy("array_elements_racy.c", (3, 4));
    free("array_elements_free.c");
}

#[test]
fn struct_fields() {
    racy("struct_fields_racy.c", (4, 5));
    free("struct_fields_free.c");
}

#[test]
fn heap_object_via_thread_argument_same_routine_twice() {
    racy("heap_arg_racy.c", (4, 4));
    free("heap_arg_free.c");
}

#[test]
fn heap_object_of_nondeterministic_size() {
    racy("heap_nondet_size_racy.c", (5, 6));
    free("heap_nondet_size_free.c");
}

/// An allocation whose size an inlined helper computes from its parameters (`size = priv +
/// sizeof(struct dev)`, a driver's private data after its struct): a constant, though no
/// literal. It was once taken for a size of its own (a `heap-size` cut of 128 bytes), which
/// cut every execution in which the allocation succeeds: "no race", vacuous.
#[test]
fn allocation_size_computed_from_constants() {
    racy("alloc_size_chain_racy.c", (5, 13));
    free("alloc_size_chain_free.c");
    for file in ["alloc_size_chain_racy.c", "alloc_size_chain_free.c"] {
        let c = checked(file);
        assert_eq!(
            c.json_value["bounds"]["cuts"],
            serde_json::json!([]),
            "{file}"
        );
    }
}

/// Issue 27 item 12: a "no race" whose bounds cut loops names them (`file:line`, in the
/// text and in JSON's `bounds.cut_loops`) and says what covers more iterations.
#[test]
fn a_no_race_names_the_loops_its_bounds_cut() {
    let c = checked("vacuous_racy.c");
    assert_eq!(c.outcome.verdict, "unknown", "{}", c.text);
    assert_eq!(
        c.json_value["bounds"]["cut_loops"],
        serde_json::json!([{"file": "tests/e2e/vacuous_racy.c", "line": 7, "column": 3}]),
        "{}",
        c.json
    );
    assert!(
        c.text.contains("(loops cut: tests/e2e/vacuous_racy.c:7)"),
        "{}",
        c.text
    );
    // Not vacuous at 3/4 (its `main` then spins): a "no race" naming the cut loop.
    let (code, out, err) = ladr(&["tests/e2e/vacuous_free.c", "--rounds", "3", "--unwind", "4"]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(
        out.contains(
            "loop cut at 4 unwindings: tests/e2e/vacuous_free.c:13; a larger --unwind U (or \
             --deepen)"
        ),
        "{out}"
    );
    // Nothing cut, nothing named.
    let c = checked("fn_pointer_task_free.c");
    assert!(
        c.json_value["bounds"].get("cut_loops").is_none(),
        "{}",
        c.json
    );
    assert!(!c.text.contains("loop cut at"), "{}", c.text);
}

#[test]
fn main_arguments_are_inputs() {
    racy("argv_racy.c", (3, 3));
    free("argv_free.c");
}

#[test]
fn loop_filling_a_large_heap_object_with_arbitrary_bytes() {
    // The fill loop runs 804 times: it becomes one step instead of cutting every run.
    racy("fill_loop_racy.c", (12, 13));
    free("fill_loop_free.c");
}

#[test]
fn local_whose_address_escapes() {
    racy("escaped_local_racy.c", (2, 7));
    free("escaped_local_free.c");
}

/// A thread's own array reached only through its own pointers (an inlined helper's
/// parameter, `memset`'s argument) is no data access: the race-free twin instruments
/// nothing (it was 10 accesses, 27 visible statements; now 17). Published through a global
/// pointer, `main`'s array races with the thread's write through it.
#[test]
fn local_reached_through_its_threads_own_pointers() {
    racy("confined_local_racy.c", (5, 15));
    free("confined_local_free.c");
    let c = checked("confined_local_free.c");
    assert_eq!(
        c.json_value["stats"]["instrumented_accesses"], 0,
        "{}",
        c.json
    );
}

/// A failed assertion of a thread's own values stops the thread there for good (`lazy`
/// writes the stop in place; the assumption is no visible statement): its write before
/// the assertion still races with `main`'s read, and a write after it never happens.
#[test]
fn a_failed_assertion_stops_its_thread() {
    racy("assert_stop_racy.c", (6, 13));
    free("assert_stop_free.c");
}

#[test]
fn threads_created_in_a_loop() {
    racy("loop_create_racy.c", (3, 3));
    free("loop_create_free.c");
}

#[test]
fn condition_variable() {
    racy("condvar_racy.c", (11, 19));
    free("condvar_free.c");
}

#[test]
fn atomic_sections() {
    racy("atomic_section_racy.c", (7, 12));
    free("atomic_section_free.c");
}

#[test]
fn atomic_functions() {
    racy("atomic_racy.c", (3, 5));
    free("atomic_free.c");
}

/// More addressed objects than CBMC numbers by default: CBMC runs again with more bits.
#[test]
fn more_objects_than_cbmc_numbers_by_default() {
    racy("many_objects_racy.c", (12, 16));
    free("many_objects_free.c");
}

/// The store of an atomic function's result is outside its section.
#[test]
fn atomic_function_results() {
    racy("verifier_atomic_result_racy.c", (5, 5));
    free("verifier_atomic_result_free.c");
}

/// User-defined C11 `atomic_*` operations are atomic, also around a section of their own.
#[test]
fn c11_atomic_functions() {
    racy("c11_atomic_racy.c", (18, 18));
    free("c11_atomic_free.c");
}

/// Every access of an `_Atomic` object is atomic (`hits++`, `(*p)++` through an
/// `atomic_int *`, gcc's `<stdatomic.h>` macros with `__auto_type`); a plain access of one
/// (through an `int *`) still races with an atomic one, which is shown as the object.
#[test]
fn c11_atomic_objects() {
    racy("stdatomic_racy.c", (5, 11));
    let c = checked("stdatomic_racy.c");
    let exprs: Vec<&str> = c.json_value["races"][0]["accesses"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a["expr"].as_str().unwrap())
        .collect();
    assert!(exprs.contains(&"counter"), "{}", c.json);
    let atomic = c.json_value["races"][0]["accesses"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|a| a["atomic"] == true)
        .count();
    assert_eq!(atomic, 1, "{}", c.json);
    free("stdatomic_free.c");
}

/// `__atomic_*` builtins through a pointer variable (not `&x`) are atomic accesses of what
/// it points to.
#[test]
fn atomic_builtins_through_pointers() {
    racy("atomic_pointer_racy.c", (5, 9));
    free("atomic_pointer_free.c");
}

/// Every thread has its own errno (glibc's `(*__errno_location ())`), and reads back what
/// it set.
#[test]
fn errno_is_per_thread() {
    racy("errno_racy.c", (10, 10));
    free("errno_free.c");
}

/// Asserts that the answer `c` states exactly the assumption `want`, in JSON, in the text
/// report and in SARIF.
fn assert_assumptions(c: &checked::Checked, want: &str) {
    assert_eq!(
        c.json_value["assumptions"],
        serde_json::json!([want]),
        "{}",
        c.json
    );
    assert!(c.text.contains(want), "{}", c.text);
    assert_eq!(
        c.sarif["runs"][0]["properties"]["assumptions"],
        serde_json::json!([want])
    );
}

/// `ffs` computes its result (CBMC has no model of it; `abs` is CBMC's own); a function
/// without a body whose result is used is an assumption of the verdict, in every format.
#[test]
fn library_results_and_assumptions() {
    racy("ffs_racy.c", (11, 11));
    free("ffs_free.c");
    assert_assumptions(
        &checked("ffs_free.c"),
        "the result of `measure` (no body) is any value of its type",
    );
    // No assumption where every result is computed.
    assert!(checked("ffs_racy.c")
        .json_value
        .get("assumptions")
        .is_none());
}

/// The result of a function without a body that returns `void *` is a null pointer or a
/// fresh block of any size, stated as an assumption: no false race on the pointer that
/// holds it (CBMC's "any value" of a pointer pointed into the program's own objects), and
/// the race of two threads on one element of the block is found.
#[test]
fn void_pointer_results_are_fresh_blocks() {
    racy("void_result_racy.c", (7, 7));
    free("void_result_free.c");
    // A `void *` into an argument (`bsearch`) is no fresh object.
    racy("void_into_argument_racy.c", (10, 16));
    assert_assumptions(
        &checked("void_result_free.c"),
        "the result of `alloc_block` (no body) is a null pointer or a fresh object of any \
         size, not one of the program's objects",
    );
}

/// A matrix whose rows have a variable length keeps its layout in the sequential program
/// (`threads/vla.rs`): an element reached through a pointer to the first one races with
/// the same element named by row and column (missed when rows were given 256 elements).
#[test]
fn variable_length_rows_keep_their_layout() {
    racy("vla_rows_racy.c", (8, 17));
    free("vla_rows_free.c");
}

/// A pointer made from an integer (a device register) names no object CBMC's shadow memory
/// can flag: its race is missed, and the "no race" says that such accesses may not have
/// been checked, in every format. Programs whose pointers all have known targets (every
/// other e2e program) state no such thing.
#[test]
fn integer_addresses_race_and_bounded_pointers_are_no_assumption() {
    // Two writes of one device register through pointers made from one integer: CBMC's
    // integer-address object, compared like any other by the one monitored address.
    racy("mmio_unchecked.c", (7, 13));
    // CBMC's null pointer is in the integer-address object too: not one of them.
    free("null_member_free.c");
    // Nor are two null pointers' elements at one large offset (8000 ≥ the null page).
    racy("null_offset_racy.c", (5, 6));
    free("null_offset_free.c");
    for bounded in ["global_joined_free.c", "library_free.c"] {
        assert!(
            checked(bounded).json_value.get("assumptions").is_none(),
            "{bounded}"
        );
    }
}

#[test]
fn race_after_two_loop_iterations() {
    racy("loop_twice_racy.c", (9, 13));
    // The command line with smaller bounds: exit status 0 and the text report on stdout.
    let (code, out, err) = ladr(&["tests/e2e/loop_twice_racy.c", "--unwind", "1"]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("the bounds cut the program: loop"), "{out}");
}

#[test]
fn race_that_needs_two_rounds() {
    racy("two_rounds_racy.c", (8, 19));
    // The command line with one round, in JSON on stdout.
    let (code, out, err) = ladr(&[
        "tests/e2e/two_rounds_racy.c",
        "--rounds",
        "1",
        "--format",
        "json",
    ]);
    assert_eq!(code, 0, "{out}{err}");
    let v: serde_json::Value = serde_json::from_str(&out).expect("JSON on stdout");
    assert_eq!(v["verdict"], "no-race", "{out}");
    assert_eq!(v["bounds"]["rounds"], 1, "{out}");
    assert_eq!(v["races"], serde_json::json!([]), "{out}");
}

#[test]
fn read_read_is_no_race() {
    free("read_read_free.c");
}

#[test]
fn char_write_into_int() {
    racy("char_into_int_racy.c", (3, 4));
    free("char_into_int_free.c");
}

#[test]
fn library_calls_write_through_pointers() {
    racy("library_racy.c", (4, 5));
    free("library_free.c");
}

/// CBMC's own `memcpy` asserts its destination writeable; a null one (with no bytes to
/// copy) failed that assertion, which was read as a race between access sites 0 and 0
/// (sparkletron/C89_pthread_ring_buffer in library mode). Only the race assertion counts.
#[test]
fn a_failed_precondition_of_cbmcs_library_is_no_race() {
    racy("library_precondition_racy.c", (12, 12));
    free("library_precondition_free.c");
}

/// A library call of a constant 0 bytes touches nothing; its range was a `char (*)[0]`,
/// on whose shadow memory CBMC 6.6 crashed (boolbv.cpp:73).
#[test]
fn a_library_call_of_no_bytes_is_no_access() {
    racy("library_zero_bytes_racy.c", (12, 12));
    free("library_zero_bytes_free.c");
}

#[test]
fn sequential_output_is_valid_c() {
    for f in std::fs::read_dir(Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/e2e")).unwrap() {
        let f = f.unwrap().path();
        let out = Command::new(env!("CARGO_BIN_EXE_ladr"))
            .arg(&f)
            .args(["--emit", "seq", "--no-deepen"])
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let dir = tempfile::tempdir().unwrap();
        let seq = dir.path().join("seq.c");
        std::fs::write(&seq, &out.stdout).unwrap();
        let gcc = Command::new("gcc")
            .args(["-fsyntax-only", "-w", "-x", "c"])
            .arg(&seq)
            .output()
            .unwrap();
        assert!(
            gcc.status.success(),
            "{}: {}",
            f.display(),
            String::from_utf8_lossy(&gcc.stderr)
        );
    }
}

#[test]
fn static_local_is_one_object() {
    racy("static_local_racy.c", (4, 4));
    free("static_local_mutex_free.c");
    // A static local of a function inlined into two different start routines.
    racy_one_of("static_local_helper_racy.c", &[(4, 4), (4, 5)]);
}

#[test]
fn thread_local_has_one_instance_per_thread() {
    free("thread_local_free.c");
    racy("thread_local_twin_racy.c", (3, 3));
    // Another thread may still reach a thread's instance through a pointer.
    racy("thread_local_escape_racy.c", (9, 17));
}

#[test]
fn thread_specific_data_per_thread() {
    free("keys_free.c");
    racy("keys_shared_racy.c", (8, 8));
}

#[test]
fn main_return_value_is_read() {
    racy("main_return_racy.c", (3, 7));
}

#[test]
fn join_stores_the_exit_value_in_the_joining_thread() {
    racy("join_store_racy.c", (4, 9));
    free("join_store_free.c");
}

/// Issue 33 (a real race, qrencode's mask buffer, answered "no race"): a heap block whose
/// size is computed at run time is `--heap-block` bytes (128 by default), and an execution
/// that allocates more stops at the allocation. Both threads allocate 200 and 300 bytes
/// before their racing write: by default the race is never reached, and the "no race" names
/// the allocation, the block size and the option (text, JSON `bounds.heap_block`,
/// `bounds.cut_allocations`); with `--heap-block 512` the race is found.
#[test]
fn a_heap_size_cut_names_the_allocation_and_heap_block_lifts_it() {
    let file = "tests/e2e/heap_block_racy.c";
    let (code, out, err) = ladr(&[file]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(
        out.contains(
            "heap blocks whose size is computed at run time are 128 bytes \
             (tests/e2e/heap_block_racy.c:6): an execution that allocates more stops there, \
             unexplored; a larger --heap-block BYTES explores it"
        ),
        "{out}"
    );
    let (_, out, err) = ladr(&[file, "--format", "json"]);
    let v: serde_json::Value = serde_json::from_str(&out).expect(&err);
    assert_eq!(v["bounds"]["heap_block"], 128, "{out}");
    assert_eq!(v["bounds"]["cut_allocations"][0]["line"], 6, "{out}");
    let (code, out, err) = ladr(&[file, "--heap-block", "512"]);
    assert_eq!(code, 1, "{out}{err}");
    assert!(out.contains("data race on `shared[0]`"), "{out}");
}

/// Issue 33 (sysprog21's cmap: `cmap_init` fills a table of 512 entries before the threads
/// start): an allocation whose size is made of a local assigned a constant and `sizeof`
/// (`n * sizeof *a` of an inlined `init(512)`) is of that constant size. It was a block of
/// `--heap-block` bytes whose 2048 asked for stopped every execution before the threads: a
/// vacuous "no race" on the racy program.
#[test]
fn allocation_size_from_a_constant_local() {
    racy("alloc_size_local_racy.c", (12, 12));
    free("alloc_size_local_free.c");
    let c = checked("alloc_size_local_free.c");
    assert_eq!(c.json_value["bounds"]["vacuous"], false, "{}", c.json);
}
