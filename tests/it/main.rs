//! The integration tests but the CBMC end-to-end suite (`tests/end_to_end`, the other
//! binary), gathered in one test binary: each binary links the whole workspace, and linking
//! dominated a fresh `cargo test`. One module per group (once a file of its own, and its
//! snapshots are `snapshots/it__GROUP__NAME.snap`); run one group with
//! `cargo test --release --test it -- GROUP::` (e.g. `fuzz::`).

#[path = "../common/mod.rs"]
mod common;

mod benchexec;
mod bound_corpus;
mod constprop;
mod dataonly;
mod eval;
mod fuzz;
mod html_report;
mod inline;
mod invariants;
mod lazy;
mod normalise;
mod print_corpus;
mod print_roundtrip;
mod proof_shrink;
mod prove;
mod prove_affine;
mod prove_alias;
mod prove_asm;
mod prove_barrier;
mod prove_base;
mod prove_blocks;
mod prove_chunks;
mod prove_disjoint;
mod prove_element;
mod prove_fields;
mod prove_guard;
mod prove_heap;
mod prove_library;
mod prove_literal;
mod prove_lockptr;
mod prove_once;
mod prove_table;
mod prove_team_barrier;
mod prove_userlock;
mod prove_window;
mod prove_worksharing;
mod race;
mod racefree;
mod threads;
mod tidy;
mod trace_mapping;
mod unwind;
mod visible;
mod yaml_witness;
