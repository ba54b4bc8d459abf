//! Shared AST tools for the passes: builders ([`build`]), the walker ([`walk`]), the body
//! copier ([`copy`]) and the generated-name scheme ([`names`]).

pub mod build;
pub mod copy;
pub mod names;
pub mod walk;
