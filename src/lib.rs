//! ladr: a data-race finder for POSIX-threads C programs by lazy sequentialization.
//!
//! See `ARCHITECTURE.md` for the pipeline and the code map.
pub mod print;
