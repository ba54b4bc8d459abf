//! The contract between the passes: the program that flows through them ([`program`]), the
//! fixed names of the sequential program and the pthread model ([`abi`]), and the facts
//! about a program that several passes and the check share ([`analysis`]).
//!
//! Architecture invariant: this crate knows no pass. Passes (`ladr-seq`), the check
//! (`ladr-check`) and the report (`ladr-report`) import it; it imports only the C layer.
//! Pure: no I/O, no serde, no command line.

pub mod abi;
pub mod analysis;
pub mod bit_field_index;
pub mod bit_fields;
pub mod confined;
pub mod program;
