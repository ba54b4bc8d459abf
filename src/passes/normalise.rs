//! `normalise` — not written yet (see passes/mod.rs for the normal form it keeps).

use crate::diag::Result;
use crate::program::{Options, Program};

pub fn run(p: Program, _opts: &Options) -> Result<Program> {
    Ok(p)
}
