//! The command line of library mode (`ladr FILE --entry f --entry g`): the options, and
//! the generated harness put in place of the program's `main` (`ladr_seq::harness`).

use ladr_c::diag::{Error, ErrorKind};
use ladr_c::frontend::Parsed;
use ladr_seq::harness::{self, Harness, Spec};

/// Library mode's options.
#[derive(clap::Args, Debug, Clone, Default)]
pub struct LibraryArgs {
    /// Library mode: call FUNCTION from a thread of its own in a generated `main` (give it
    /// twice to run it on two threads; the program's own `main`, if any, is not run).
    #[arg(long = "entry", value_name = "FUNCTION", help_heading = "Library mode")]
    pub entries: Vec<String>,
    /// Library mode: call FUNCTION (no parameters) first in the generated `main`, alone.
    #[arg(
        long,
        value_name = "FUNCTION",
        help_heading = "Library mode",
        requires = "entries"
    )]
    pub init: Option<String>,
    /// Library mode: pointer arguments of one type point to one object all the entries
    /// share (default: each thread's own fresh objects).
    #[arg(long, help_heading = "Library mode", requires = "entries")]
    pub share_args: bool,
}

/// The program with the generated harness when `--entry` was given (none otherwise).
pub fn harness(args: &LibraryArgs, parsed: &Parsed) -> Result<Option<Harness>, Error> {
    if args.entries.is_empty() {
        return Ok(None);
    }
    if args.entries.len() > 16 {
        return Err(Error::new(
            ErrorKind::Usage,
            "at most 16 --entry functions (each is a thread)",
        ));
    }
    let spec = Spec {
        entries: args.entries.clone(),
        init: args.init.clone(),
        share_args: args.share_args,
    };
    harness::generate(parsed, &spec).map(Some)
}
