//! End-to-end: the `ladr` binary with CBMC on racy programs and their race-free twins
//! (tests/e2e/*.c). A racy program must be reported with the racing pair of lines; a
//! race-free twin must get "no race". Needs CBMC (scripts/install-cbmc); fails without it.

use std::path::Path;
use std::process::Command;

fn ladr(file: &str, extra: &[&str]) -> (i32, String) {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/e2e")
        .join(file);
    let out = Command::new(env!("CARGO_BIN_EXE_ladr"))
        .arg(&path)
        .args(extra)
        .output()
        .expect("run ladr");
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    (out.status.code().unwrap_or(-1), text)
}

/// Asserts a race between the two given lines (in either order).
fn racy(file: &str, lines: (u32, u32)) {
    let (code, out) = ladr(file, &[]);
    assert_eq!(code, 1, "{file}: expected a race, got:\n{out}");
    let a = format!("{file}:{}:", lines.0);
    let b = format!("{file}:{}:", lines.1);
    assert!(
        out.contains(&a) && out.contains(&b),
        "{file}: expected lines {lines:?} in:\n{out}"
    );
}

fn free(file: &str) {
    let (code, out) = ladr(file, &[]);
    assert_eq!(code, 0, "{file}: expected no race, got:\n{out}");
    assert!(out.contains("no race found"), "{out}");
}

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
fn local_whose_address_escapes() {
    racy("escaped_local_racy.c", (2, 7));
    free("escaped_local_free.c");
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

#[test]
fn race_after_two_loop_iterations() {
    racy("loop_twice_racy.c", (9, 13));
    let (code, out) = ladr("loop_twice_racy.c", &["--unwind", "1"]);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("cut at the bounds"), "{out}");
}

#[test]
fn race_that_needs_two_rounds() {
    racy("two_rounds_racy.c", (3, 7));
    let (code, out) = ladr("two_rounds_racy.c", &["--rounds", "1"]);
    assert_eq!(code, 0, "{out}");
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

#[test]
fn sequential_output_is_valid_c() {
    for f in std::fs::read_dir(Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/e2e")).unwrap() {
        let f = f.unwrap().path();
        let out = Command::new(env!("CARGO_BIN_EXE_ladr"))
            .arg(&f)
            .args(["--emit", "seq"])
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
    racy("static_local_helper_racy.c", (4, 4));
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
