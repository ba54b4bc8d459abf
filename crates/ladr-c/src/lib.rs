//! The C layer of ladr: reading C (preprocessor, fix-ups, lang-c parse, source map), the
//! AST tools every pass uses (builders, walker, renaming, fresh names), located errors and
//! their rendering, and the printer — the only producer of C text.
//!
//! Architecture invariant: this crate knows nothing of threads, of the sequential program's
//! fixed names, of CBMC or of JSON. It is the C language and nothing else; everything
//! about data races is built on top of it in `ladr-seq`.

// Imports go one way: `origin` and `source_map` (spans and offsets) < `diag` (located errors)
// < `frontend` (reading C).
pub mod diag;
pub mod frontend;
pub mod origin;
pub mod print;
pub mod source_map;
pub mod syntax;
pub mod trees;
