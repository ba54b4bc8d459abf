//! ladr on a repository: the build's compile database ([`compdb`]), the `ladr.toml` race
//! gate ([`config`]), suppressions and baselines.
//!
//! Architecture invariant: this crate decides which files make a program and which races
//! fail a gate; it never translates C or reads CBMC's output itself (that is `ladr-check`
//! and `ladr-report`).

pub mod compdb;
pub mod config;
