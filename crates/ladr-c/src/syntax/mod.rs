//! Shared AST tools for the passes: builders ([`build`]), the walker ([`walk`]), the body
//! copier ([`copy`]), the constant evaluator ([`constant`]), the generated-name scheme ([`names`])
//! and one-call queries over the walker ([`query`]).

pub mod build;
pub mod constant;
pub mod copy;
pub mod names;
pub mod query;
pub mod walk;
