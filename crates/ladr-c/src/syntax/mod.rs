//! Shared AST tools for the passes: builders ([`build`]), a mutable walker ([`walk`]) and the
//! generated-name scheme ([`names`]).

pub mod build;
pub mod names;
pub mod rename;
pub mod walk;
