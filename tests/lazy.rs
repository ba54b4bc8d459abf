//! Snapshot tests of `lazy`: the sequential program given to CBMC for the minimal fixtures
//! of `common::fixtures`, checked by gcc as a whole; the snapshots leave out the prelude
//! (`common::PTHREAD_PRELUDE`) and the pthread model, which never change.

mod common;

/// The whole pipeline but `racefree` (every shared access instrumented); the printed
/// program without prelude and model.
fn check(src: &str) -> String {
    let (p, _) = common::passes_instrumenting_all(common::PTHREAD_PRELUDE, src, 2, "lazy")
        .unwrap_or_else(|e| panic!("{e}\n--- input:\n{src}"));
    common::printed_without_model(common::PTHREAD_PRELUDE, &p)
        .unwrap_or_else(|e| panic!("{e}\n--- input:\n{src}"))
}

crate::fixture_snapshots!(check);
