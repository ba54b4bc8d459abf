//! `ladr check` and `ladr init`: the command line of the repository gate (the work is in
//! `ladr_project::gate`).

use super::{emit, Cli, Format};
use ladr_c::diag::{Error, ErrorKind};
use ladr_check::Phase;
use ladr_project::cache::Cache;
use ladr_project::config::{Config, Harness, FILE_NAME, STARTER};
use ladr_project::gate::{self, Event, RunOptions};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Mutex;
use std::time::Duration;

/// Options of `ladr check`.
#[derive(clap::Args, Debug, Clone)]
pub struct CheckArgs {
    /// Harnesses to run (default: all of the config).
    #[arg(value_name = "NAME")]
    names: Vec<String>,
    /// The config (default: `ladr.toml` in the current directory).
    #[arg(long, value_name = "FILE")]
    config: Option<PathBuf>,
    /// Harnesses checked at the same time (default: the number of cores).
    #[arg(long, short = 'j', value_parser = clap::value_parser!(u32).range(1..))]
    jobs: Option<u32>,
    /// An earlier `ladr check` JSON or SARIF (or a `ladr FILE` one): its races are
    /// "unchanged" and do not fail the gate; only new races do.
    #[arg(long, value_name = "FILE")]
    baseline: Option<PathBuf>,
    /// Output format on stdout.
    #[arg(long, value_enum, default_value_t = Format::Text, value_name = "FORMAT")]
    format: Format,
    /// Also write the combined SARIF log to FILE (for code scanning).
    #[arg(long, value_name = "FILE")]
    sarif: Option<PathBuf>,
    /// Also write the combined JSON document to FILE (a later run's --baseline).
    #[arg(long, value_name = "FILE")]
    json: Option<PathBuf>,
    /// Also write one self-contained HTML page per race to DIR (`HARNESS-N.html`, as
    /// `ladr FILE --format html` writes), and `index.html` linking them.
    #[arg(long, value_name = "DIR")]
    html: Option<PathBuf>,
    /// Show every step of every context of a new race's interleaving.
    #[arg(long)]
    steps: bool,
    /// No progress display on the terminal.
    #[arg(short, long)]
    quiet: bool,
    /// The CBMC binary (default: as for `ladr FILE`).
    #[arg(long, value_name = "PATH")]
    cbmc: Option<PathBuf>,
    /// Memory budget in MB (default: half of the machine's memory, or of the cgroup's
    /// limit when lower): ladr's own translation beyond it ends the gate with a
    /// `resources` error (exit 3); the CBMC runs at once share it.
    #[arg(long, value_name = "MB",
          value_parser = clap::value_parser!(u64).range(64..=1u64 << 40))]
    memory: Option<u64>,
    /// Round-robin rounds K of every harness (overrides `ladr.toml`; 1–100).
    #[arg(long, value_name = "K", help_heading = "Overrides of ladr.toml",
          value_parser = clap::value_parser!(u32).range(1..=ladr_ir::program::MAX_ROUNDS as i64))]
    rounds: Option<u32>,
    /// Loop unwinding and recursion depth U of every harness (overrides `ladr.toml`; 0–1000).
    #[arg(long, value_name = "U", help_heading = "Overrides of ladr.toml",
          value_parser = clap::value_parser!(u32).range(0..=ladr_ir::program::MAX_UNWIND as i64))]
    unwind: Option<u32>,
    /// Time limit per harness in seconds, 0: none (overrides `ladr.toml`).
    #[arg(long, value_name = "SECONDS", help_heading = "Overrides of ladr.toml",
          value_parser = super::parse_seconds)]
    timeout: Option<f64>,
    /// Grow the bounds while the time lasts (overrides `ladr.toml`'s `deepen`).
    #[arg(
        long,
        help_heading = "Overrides of ladr.toml",
        conflicts_with = "no_deepen"
    )]
    deepen: bool,
    /// Check only at the harness's rounds/unwind (overrides `ladr.toml`'s `deepen`).
    #[arg(long, help_heading = "Overrides of ladr.toml")]
    no_deepen: bool,
    /// When to use colour in diagnostics.
    #[arg(long, value_enum, default_value_t = super::Color::Auto, value_name = "WHEN")]
    pub(crate) color: super::Color,
    /// Print the harnesses that would run (name, bounds, time limit, files, cached or not)
    /// and exit 0, checking nothing.
    #[arg(long)]
    list: bool,
    /// Only the harnesses whose files, or files they include, changed since the git
    /// revision REV (`git diff --name-only REV`, plus files not yet tracked).
    #[arg(long, value_name = "REV")]
    changed_since: Option<String>,
    /// Check every harness again, even when the result cache holds its answer (the cache
    /// is still written).
    #[arg(long)]
    no_cache: bool,
    /// The result cache's directory (default: `$XDG_CACHE_HOME/ladr/results`, else
    /// `~/.cache/ladr/results`), e.g. one that CI keeps between runs.
    #[arg(long, value_name = "DIR")]
    cache_dir: Option<PathBuf>,
}

/// Runs `ladr check`.
pub fn check(args: &CheckArgs, _cli: &Cli) -> ExitCode {
    match check_inner(args) {
        Ok(code) => ExitCode::from(code),
        Err(e) => {
            let mut err_out = codespan_reporting::term::termcolor::StandardStream::stderr(
                super::color_choice(args.color, false),
            );
            ladr_c::diag::render(&mut err_out, &e, None);
            let format = match args.format {
                Format::Json => Some("json"),
                Format::Sarif => Some("sarif"),
                _ => None,
            };
            if let Some(format) = format {
                let argv: Vec<std::ffi::OsString> = std::env::args_os().collect();
                emit(&super::documents::document(&argv, format, &e, None, &[]));
            }
            ExitCode::from(e.kind.exit_status())
        }
    }
}

fn check_inner(args: &CheckArgs) -> Result<u8, Error> {
    if args.format == Format::Html {
        return Err(Error::new(
            ErrorKind::Usage,
            "--format html is for one file (`ladr FILE`), not for `ladr check`",
        ));
    }
    let path = args
        .config
        .clone()
        .unwrap_or_else(|| PathBuf::from(FILE_NAME));
    if !path.exists() {
        return Err(Error::new(
            ErrorKind::Usage,
            format!(
                "no config `{}`: write one with `ladr init` (or name it with --config)",
                path.display()
            ),
        ));
    }
    let mut config = Config::load(&path)?;
    override_settings(&mut config, args);
    let mut harnesses = gate::select(&config, &args.names)?;
    // A suppression comment without a reason is refused before anything runs, as an
    // `[[allow]]` without one is.
    let listed: Vec<String> = harnesses
        .iter()
        .flat_map(|h| h.files.iter().map(|f| f.display().to_string()))
        .collect();
    ladr_project::suppress::check_reasons(listed.iter().map(String::as_str))?;
    let cache = match &args.cache_dir {
        Some(dir) => Some(Cache {
            dir: dir.clone(),
            read: !args.no_cache,
        }),
        None => Cache::user(!args.no_cache),
    };
    if let Some(rev) = &args.changed_since {
        let changed = ladr_project::changes::since(&config.root, rev)?;
        let db = gate::database(&config)?;
        let before = harnesses.len();
        harnesses.retain(|h| gate::touched(h, db.as_ref(), &changed));
        eprintln!(
            "--changed-since {rev}: {} of {before} harnesses read a changed file",
            harnesses.len()
        );
    }
    if args.list {
        let cbmc = ladr_cbmc::locate(args.cbmc.as_deref()).ok();
        emit(&list(&config, &harnesses, cache.as_ref(), cbmc.as_deref())?);
        return Ok(0);
    }
    let baseline = match &args.baseline {
        Some(b) => Some(ladr_project::baseline::load(b)?),
        None => None,
    };
    let cbmc = ladr_cbmc::locate(args.cbmc.as_deref())
        .map_err(|e| Error::new(ErrorKind::Backend, e.to_string()))?;
    let jobs = args.jobs.map(|j| {
        let (jobs, note) = ladr_check::Plan::capped_jobs(j as usize);
        if let Some(note) = note {
            eprintln!("{note}");
        }
        jobs
    });
    let jobs = jobs.unwrap_or_else(|| {
        std::thread::available_parallelism()
            .map(|n| n.get())
            .unwrap_or(1)
    });
    let budget = ladr_cbmc::memory::Budget::new(args.memory);
    ladr_cbmc::process::limit_children(budget.per_cbmc(jobs));
    ladr_cbmc::memory::watch(budget, |message| {
        ladr_cbmc::process::abandon();
        eprintln!("error: {}", ladr_c::diag::visible(&message));
        std::process::exit(3);
    });
    let bars = Progress::new(args.quiet, harnesses.len());
    let gate = gate::run(
        &config,
        &harnesses,
        &RunOptions {
            cbmc,
            jobs,
            baseline,
            cache,
        },
        &|e| bars.event(e),
    )?;
    bars.finish();
    let root = ladr_report::sarif::root(&path);
    if let Some(f) = &args.sarif {
        write(f, &ladr_report::sarif::to_string(&gate.sarif(&root)))?;
    }
    if let Some(f) = &args.json {
        write(f, &gate.json())?;
    }
    if let Some(dir) = &args.html {
        write_html(dir, &gate)?;
    }
    match args.format {
        Format::Text => emit(&gate.text(args.steps)),
        Format::Json => emit(&format!("{}\n", gate.json())),
        Format::Sarif => emit(&format!(
            "{}\n",
            ladr_report::sarif::to_string(&gate.sarif(&root))
        )),
        Format::Html => unreachable!("refused above"),
    }
    Ok(gate.status())
}

/// The command line's settings over those of `ladr.toml`, for every harness.
fn override_settings(config: &mut Config, args: &CheckArgs) {
    for h in &mut config.harnesses {
        if let Some(r) = args.rounds {
            h.rounds = r;
        }
        if let Some(u) = args.unwind {
            h.unwind = u;
        }
        if let Some(t) = args.timeout {
            h.timeout = (t > 0.0).then_some(t);
        }
        if args.deepen {
            h.deepen = true;
        }
        if args.no_deepen {
            h.deepen = false;
        }
    }
}

/// `--list`: one line per harness that would run (bounds, time limit, deepening, whether
/// the cache holds its answer), then its files.
fn list(
    config: &Config,
    harnesses: &[&Harness],
    cache: Option<&Cache>,
    cbmc: Option<&Path>,
) -> Result<String, Error> {
    let db = gate::database(config)?;
    let mut out = String::new();
    for h in harnesses {
        let cached = match (cbmc, gate::prepare(h, db.as_ref())) {
            (_, Ok(_)) if cache.is_none() => "no cache directory",
            (Some(cbmc), Ok(p)) => {
                let key = Cache::key(&p.text, h, cbmc);
                if cache.is_some_and(|c| c.holds(&key)) {
                    "cached"
                } else {
                    "not cached"
                }
            }
            (_, Err(_)) => "unreadable",
            (None, _) => "no CBMC",
        };
        let timeout = h
            .timeout
            .map_or("no time limit".to_string(), |t| format!("{t} s"));
        out.push_str(&format!(
            "{}: rounds {}, unwind {}, {timeout}, {}, {cached}\n",
            h.name,
            h.rounds,
            h.unwind,
            if h.deepen { "deepen" } else { "no deepening" },
        ));
        for f in &h.files {
            out.push_str(&format!("  {}\n", f.display()));
        }
    }
    if harnesses.is_empty() {
        out.push_str("no harness would run\n");
    }
    Ok(out)
}

fn write(path: &Path, text: &str) -> Result<(), Error> {
    std::fs::write(path, format!("{text}\n")).map_err(|e| {
        Error::new(
            ErrorKind::Usage,
            format!("cannot write `{}`: {e}", path.display()),
        )
    })
}

/// `--html DIR`: a page per race and an index (`Gate::html`), written into DIR.
fn write_html(dir: &Path, gate: &gate::Gate) -> Result<(), Error> {
    std::fs::create_dir_all(dir).map_err(|e| {
        Error::new(
            ErrorKind::Usage,
            format!("--html: cannot create `{}`: {e}", dir.display()),
        )
    })?;
    let (pages, index) = gate.html();
    for (name, page) in &pages {
        ladr_cbmc::files::write_no_follow(&dir.join(name), page.as_bytes()).map_err(|e| {
            Error::new(
                ErrorKind::Usage,
                format!("--html: cannot write `{name}`: {e}"),
            )
        })?;
    }
    ladr_cbmc::files::write_no_follow(&dir.join("index.html"), index.as_bytes()).map_err(|e| {
        Error::new(
            ErrorKind::Usage,
            format!("--html: cannot write index.html: {e}"),
        )
    })
}

/// The progress display: a bar of harnesses done, and one line per running harness (drawn
/// only on a terminal; nothing with --quiet).
struct Progress {
    multi: indicatif::MultiProgress,
    total: indicatif::ProgressBar,
    running: Mutex<Vec<(String, indicatif::ProgressBar)>>,
}

impl Progress {
    fn new(quiet: bool, n: usize) -> Progress {
        let multi = indicatif::MultiProgress::new();
        if quiet {
            multi.set_draw_target(indicatif::ProgressDrawTarget::hidden());
        }
        let total = multi.add(indicatif::ProgressBar::new(n as u64));
        if let Ok(style) =
            indicatif::ProgressStyle::with_template("{bar:30} {pos}/{len} harnesses [{elapsed}]")
        {
            total.set_style(style);
        }
        Progress {
            multi,
            total,
            running: Mutex::new(vec![]),
        }
    }

    fn event(&self, e: Event) {
        let Ok(mut running) = self.running.lock() else {
            return;
        };
        match e {
            Event::Started(name) => {
                let bar = self.multi.add(indicatif::ProgressBar::new_spinner());
                if let Ok(style) = indicatif::ProgressStyle::with_template("  {spinner} {msg}") {
                    bar.set_style(style);
                }
                bar.set_message(format!("{name}: reading"));
                bar.enable_steady_tick(Duration::from_millis(200));
                running.push((name.to_string(), bar));
            }
            Event::Phase(name, phase, r, u) => {
                if let Some((_, bar)) = running.iter().find(|(n, _)| n == name) {
                    let what = match phase {
                        Phase::Translating => "translating",
                        Phase::Cbmc => "CBMC is checking",
                    };
                    bar.set_message(format!("{name}: {what} ({r} rounds, {u} unwindings)"));
                }
            }
            Event::Finished(run) => {
                if let Some(i) = running.iter().position(|(n, _)| *n == run.name) {
                    let (_, bar) = running.remove(i);
                    bar.finish_and_clear();
                    self.multi.remove(&bar);
                }
                let races = run.outcome.races.len();
                let _ = self.multi.println(format!(
                    "{}: {}{} ({:.1} s)",
                    run.name,
                    run.outcome.verdict,
                    if races > 0 {
                        format!(", {races} race{}", if races == 1 { "" } else { "s" })
                    } else {
                        String::new()
                    },
                    run.wall.as_secs_f64()
                ));
                self.total.inc(1);
            }
        }
    }

    fn finish(&self) {
        self.total.finish_and_clear();
        let _ = self.multi.clear();
    }
}

/// Runs `ladr init`: from the compile database when one is found (or named), one
/// library-mode harness per target; else the commented starter.
pub fn init(force: bool, compile_commands: Option<&Path>) -> ExitCode {
    let path = Path::new(FILE_NAME);
    // `symlink_metadata`: a dangling link counts as existing; neither write follows a link.
    if path.symlink_metadata().is_ok() && !force {
        eprintln!("error: `{FILE_NAME}` exists already (--force overwrites it)");
        return ExitCode::from(2);
    }
    let root = Path::new(".");
    let text = match ladr_project::init::find_database(root, compile_commands) {
        Some(db) => match ladr_project::init::targets(&db, root) {
            Ok(targets) => {
                let units: usize = targets.iter().map(|t| t.files.len()).sum();
                eprintln!(
                    "{}: {units} C translation units in {} targets",
                    db.display(),
                    targets.len()
                );
                for t in &targets {
                    eprintln!(
                        "  {}{}: {}",
                        t.name,
                        if t.executable { " (defines main)" } else { "" },
                        t.files
                            .iter()
                            .map(|f| f.display().to_string())
                            .collect::<Vec<_>>()
                            .join(" ")
                    );
                }
                let db = db.strip_prefix("./").unwrap_or(&db).to_path_buf();
                ladr_project::init::starter(&db, root, &targets)
            }
            Err(e) => {
                eprintln!("error: {}", e.message);
                return ExitCode::from(2);
            }
        },
        None if compile_commands.is_some() => unreachable!("find_database returns the path given"),
        None => {
            eprintln!(
                "no compile_commands.json in build/, out/ or cmake-build-*/: writing the \
                 generic starter (configure with CMAKE_EXPORT_COMPILE_COMMANDS=ON, or name \
                 the database with --compile-commands)"
            );
            STARTER.to_string()
        }
    };
    let written = if force {
        ladr_cbmc::files::write_no_follow(path, text.as_bytes())
    } else {
        ladr_cbmc::files::write_new(path, text.as_bytes())
    };
    match written {
        Ok(()) => {
            eprintln!("wrote {FILE_NAME}: check its harnesses, then run `ladr check`");
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("error: cannot write `{FILE_NAME}`: {e}");
            ExitCode::from(2)
        }
    }
}
