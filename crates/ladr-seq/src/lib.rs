//! The sequentialization: the program that flows between the passes ([`program`]), the
//! passes themselves ([`passes`], one module each), their order ([`pipeline`]), the pthread
//! model ([`model`]) and the sharing analysis ([`analysis`]).
//!
//! Architecture invariant: everything here is pure. No files, no processes, no clocks, no
//! serde, no command line: a pass is a function from program to program. The crate does
//! not know CBMC is the back end beyond the `__CPROVER_*` builtins the program uses.

pub mod model;
pub mod passes;
pub mod pipeline;
