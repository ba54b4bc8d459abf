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
    /// Library mode: `auto` checks every exported function of the FILEs with itself and
    /// with every other, one check per pair (as `entries = "auto"` in ladr.toml), at most
    /// --max-pairs, and reports them as `ladr check` does (its table, JSON or SARIF).
    #[arg(
        long = "entries",
        value_enum,
        value_name = "auto",
        help_heading = "Library mode",
        conflicts_with = "entries"
    )]
    pub auto: Option<Auto>,
    /// Library mode with --entries auto: pairs checked at most (those that share
    /// file-scope state first; each function with itself, then with the next one, …).
    #[arg(long, value_name = "N", help_heading = "Library mode", requires = "auto",
          default_value_t = ladr_project::config::MAX_PAIRS,
          value_parser = clap::value_parser!(u32).range(1..=10_000))]
    pub max_pairs: u32,
    /// Library mode: call FUNCTION first in the generated `main`, alone (with parameters
    /// only under --share-args: it receives the shared objects).
    #[arg(long, value_name = "FUNCTION", help_heading = "Library mode")]
    pub init: Option<String>,
    /// Library mode: pointer arguments of one type point to one object all the entries
    /// share (default: each thread's own fresh objects).
    #[arg(long, help_heading = "Library mode")]
    pub share_args: bool,
}

/// The value of `--entries`.
#[derive(clap::ValueEnum, Debug, Clone, Copy, PartialEq, Eq)]
pub enum Auto {
    /// Every exported function of the files, paired with every other and with itself.
    Auto,
}

impl LibraryArgs {
    /// `--init` and `--share-args` need library mode (`--entry` or `--entries auto`).
    pub fn check(&self) -> Result<(), Error> {
        let library = !self.entries.is_empty() || self.auto.is_some();
        match (library, &self.init, self.share_args) {
            (false, Some(_), _) | (false, _, true) => Err(Error::new(
                ErrorKind::Usage,
                "--init and --share-args are for library mode: name the entry functions with \
                 --entry FUNCTION (or --entries auto)",
            )),
            _ => Ok(()),
        }
    }
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
