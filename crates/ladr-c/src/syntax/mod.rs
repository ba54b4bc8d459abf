//! Shared AST tools for the passes: builders ([`build`]), the walker ([`walk`]), the body
//! copier ([`copy`]), the constant evaluator ([`constant`]) and the generated-name scheme ([`names`]).

pub mod build;
pub mod constant;
pub mod copy;
pub mod names;
pub mod walk;
