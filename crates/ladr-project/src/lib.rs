//! ladr on a repository: the build's compile database ([`compdb`]), the `ladr.toml` race
//! gate ([`config`], [`gate`]), suppressions ([`suppress`]), baselines ([`baseline`]), the
//! result cache ([`cache`]), the files changed since a revision ([`changes`]), and one
//! check split into swarm instances that run elsewhere ([`swarm`]).
//!
//! Architecture invariant: this crate decides which files make a program and which races
//! fail a gate; it never translates C or reads CBMC's output itself (that is `ladr-check`
//! and `ladr-report`).

pub mod baseline;
pub mod cache;
pub mod changes;
pub mod compdb;
pub mod config;
pub mod gate;
pub mod init;
pub mod library;
pub mod suppress;
pub mod swarm;
