//! Snapshot tests of `visible` (after normalise, inline, unwind, threads): each slot's items
//! (`Program::code`) with their visible labels, on the minimal fixtures of `common::fixtures`.

mod common;

use common::fixtures::*;

/// The passes up to `visible`; each slot's items.
fn check(src: &str) -> String {
    let (p, _) = common::passes(common::PTHREAD_PRELUDE, src, 2, "visible")
        .unwrap_or_else(|e| panic!("{e}\n--- input:\n{src}"));
    // Labels are 0..size in order, and every slot ends with its exit statement.
    for c in &p.code {
        let labels: Vec<u32> = c
            .items
            .iter()
            .filter_map(|it| match it {
                ladr_ir::program::Item::Visible { label, .. } => Some(*label),
                _ => None,
            })
            .collect();
        assert_eq!(labels, (0..c.size).collect::<Vec<_>>());
    }
    common::show_code(&p)
}

#[test]
fn two_threads_write_a_global() {
    insta::assert_snapshot!(check(TWO_WRITERS));
}

#[test]
fn mutex_protected_access() {
    insta::assert_snapshot!(check(MUTEX));
}

#[test]
fn if_with_a_shared_condition() {
    insta::assert_snapshot!(check(SHARED_IF));
}

#[test]
fn atomic_section() {
    insta::assert_snapshot!(check(ATOMIC_SECTION));
}
