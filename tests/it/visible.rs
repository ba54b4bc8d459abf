//! Snapshot tests of `visible` (after normalise, inline, unwind, threads): each slot's items
//! (`Program::code`) with their visible labels, on the minimal fixtures of `common::fixtures`.

use crate::common;

/// The passes up to `visible`; each slot's items.
fn check(src: &str) -> String {
    let (p, _) = common::passes(common::PTHREAD_PRELUDE, src, 2, common::PassId::Visible)
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

crate::fixture_snapshots!(check);
