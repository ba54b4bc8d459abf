//! The integration tests that need no CBMC of their own, gathered in one test binary (each
//! binary links the whole workspace, and linking dominated a fresh `cargo test`): one
//! module per group, run one group with `cargo test --release --test it -- GROUP::`
//! (e.g. `fuzz::`). The CBMC end-to-end tests are the other binary, `tests/end_to_end`.

#[path = "../common/mod.rs"]
mod common;

mod benchexec;
mod bound_corpus;
mod constprop;
mod eval;
mod fuzz;
mod html_report;
mod inline;
mod invariants;
mod lazy;
mod normalise;
mod print_corpus;
mod print_roundtrip;
mod race;
mod racefree;
mod threads;
mod tidy;
mod trace_mapping;
mod unwind;
mod visible;
mod yaml_witness;
