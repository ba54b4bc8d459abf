//! `ladr FILE... --entries auto`: library mode on every pair of the files' exported
//! functions, from the command line. The same checks as a `ladr.toml` harness with
//! `entries = "auto"` (one check per pair, `HARNESS:f+g`), run by the gate
//! (`ladr_project::gate`) on a config built from the command line, and reported as
//! `ladr check` reports them (its table, JSON or SARIF; its exit status).

use super::{emit, library_cli::LibraryArgs, Cli, Format};
use ladr_c::diag::{Error, ErrorKind};
use ladr_project::config::{Config, Entries, Harness, Library};
use ladr_project::gate::{self, RunOptions};
use std::path::PathBuf;

/// The name of the one harness (its checks are `auto:f+g`).
const NAME: &str = "auto";

/// Runs every pair's check; the gate's exit status.
pub fn run(cli: &Cli) -> Result<u8, Error> {
    let refuse = |m: &str| Err(Error::new(ErrorKind::Usage, m.to_string()));
    if cli.emit.is_some() || cli.svcomp || cli.witness.is_some() || cli.keep_files.is_some() {
        return refuse(
            "--entries auto runs one check per pair of functions: --emit, --svcomp, --witness \
             and --keep-files are for one check (name the pair with --entry f --entry g)",
        );
    }
    if cli.format == Format::Html {
        return refuse("--format html is for one check: name the pair with --entry f --entry g");
    }
    let config = config(cli, &cli.library);
    let harnesses: Vec<&Harness> = config.harnesses.iter().collect();
    let cbmc = ladr_cbmc::locate(cli.cbmc.as_deref())
        .map_err(|e| Error::new(ErrorKind::Backend, e.to_string()))?;
    let jobs = match cli.jobs {
        Some(j) => ladr_check::Plan::capped_jobs(j as usize).0,
        None => std::thread::available_parallelism().map_or(1, |n| n.get()),
    };
    let budget = ladr_cbmc::memory::Budget::new(cli.memory);
    ladr_cbmc::process::limit_children(budget.per_cbmc(jobs));
    let quiet = cli.quiet;
    let gate = gate::run(
        &config,
        &harnesses,
        &RunOptions {
            cbmc,
            jobs,
            baseline: None,
            cache: None,
        },
        &|e| {
            if let (false, gate::Event::Finished(run)) = (quiet, &e) {
                eprintln!("checked {} ({:.1} s)", run.name, run.wall.as_secs_f64());
            }
        },
    )?;
    let root = ladr_report::sarif::root(&cli.file[0]);
    match cli.format {
        Format::Json => emit(&format!("{}\n", gate.json())),
        Format::Sarif => emit(&format!(
            "{}\n",
            ladr_report::sarif::to_string(&gate.sarif(&root))
        )),
        _ => emit(&gate.text(cli.steps)),
    }
    Ok(gate.status())
}

/// A config of one `entries = "auto"` harness: the files, `-I`/`-D`, the compile
/// database, and the bounds, time limit (per pair), deepening and data model given.
fn config(cli: &Cli, library: &LibraryArgs) -> Config {
    let mut flags: Vec<String> = cli.include.iter().map(|i| format!("-I{i}")).collect();
    flags.extend(cli.define.iter().map(|d| format!("-D{d}")));
    flags.extend(cli.compiler_flags.iter().cloned());
    let timeout = super::time_limit(cli).map(|t| t.as_secs_f64());
    let harness = Harness {
        name: NAME.into(),
        files: cli.file.clone(),
        flags,
        rounds: cli.rounds,
        unwind: cli.unwind,
        timeout,
        deepen: !cli.no_deepen,
        ilp32: cli.ilp32,
        max_races: if cli.all { None } else { Some(cli.max_races) },
        library: Some(Library {
            entries: Entries::Auto,
            init: library.init.clone(),
            share_args: library.share_args,
            max_pairs: library.max_pairs as usize,
            note: None,
        }),
    };
    Config {
        path: PathBuf::from("(command line)"),
        root: PathBuf::from("."),
        compile_commands: cli.compile_commands.clone(),
        harnesses: vec![harness],
        allows: vec![],
    }
}
