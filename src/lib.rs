//! ladr: a data-race finder for POSIX-threads C programs by lazy sequentialization.
//!
//! See `ARCHITECTURE.md` for the pipeline and the code map.

pub mod analysis;
pub mod cbmc;
pub mod check;
pub mod diag;
pub mod eval;
pub mod frontend;
pub mod model;
pub mod passes;
pub mod pipeline;
pub mod print;
pub mod program;
pub mod report;
pub mod svcomp;
pub mod syntax;
