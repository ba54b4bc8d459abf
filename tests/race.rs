//! Snapshot tests of `race` (after the passes up to `visible`): the instrumented items of
//! each slot and the table of instrumented accesses (`Program::sites`), on the minimal
//! fixtures of `common::fixtures`.

mod common;

/// The passes up to `race`; each slot's instrumented items, then the sites.
fn check(src: &str) -> String {
    let (p, map) = common::passes(common::PTHREAD_PRELUDE, src, 2, "race")
        .unwrap_or_else(|e| panic!("{e}\n--- input:\n{src}"));
    format!("{}{}", common::show_code(&p), common::show_sites(&p, &map))
}

crate::fixture_snapshots!(check);
