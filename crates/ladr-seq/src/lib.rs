//! The sequentialization: the program that flows between the passes ([`program`]), the
//! passes themselves ([`passes`], one module each), their order ([`pipeline`]), the checks of
//! the invariants between them ([`invariants`]) and the pthread model ([`model`]).
//!
//! Architecture invariant: everything here is pure. No files, no processes, no clocks, no
//! serde, no command line: a pass is a function from program to program. The crate does
//! not know CBMC is the back end beyond the `__CPROVER_*` builtins the program uses.

pub mod callee_types;
pub mod harness;
pub mod hygiene;
pub mod invariants;
pub mod model;
pub mod normal_form;
pub mod passes;
pub mod pipeline;
pub mod prove;
pub mod swarm;
pub mod unsupported;
