//! `ladr swarm emit DIR FILE...` and `ladr swarm collect DIR`: the command line of one
//! bound pair's check split into swarm instances that existing engines run
//! (`ladr_project::swarm` writes and reads the directory); collect renders the answer as
//! `ladr FILE` does.

use super::{color_choice, emit, Color, Format};
use clap::Subcommand;
use ladr_c::diag::render;
use ladr_check::Verdict;
use ladr_project::swarm::{self, Failed};
use ladr_report as report;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

/// Options of `ladr swarm`.
#[derive(clap::Args, Debug, Clone)]
pub struct SwarmArgs {
    #[command(subcommand)]
    cmd: SwarmCmd,
}

#[derive(Subcommand, Debug, Clone)]
enum SwarmCmd {
    /// Write the swarm instances of one bound pair's check into DIR, with `commands.txt`
    /// (for `xargs -P` or GNU parallel) and `slurm.sh` (a Slurm job array).
    ///
    /// Exit status: 0 written, 2 usage error or input ladr cannot handle.
    Emit(EmitArgs),
    /// Read the instances' CBMC outputs in DIR and report as `ladr FILE` does: a race found
    /// by any instance, "no race" when every instance found none.
    ///
    /// Exit status: 0 no race, 1 race, 2 usage error, 3 no verdict (an instance without
    /// output or without a verdict).
    Collect(CollectArgs),
}

#[derive(clap::Args, Debug, Clone)]
struct EmitArgs {
    /// Where to write the instances (created; must be empty or missing).
    dir: PathBuf,
    /// The C files of the program (as for `ladr FILE...`).
    #[arg(required = true, value_name = "FILE")]
    files: Vec<PathBuf>,
    /// How many instances (default: one per context the first racing access can end,
    /// rounds × threads; at most that many).
    #[arg(long, short = 'n', value_name = "N",
          value_parser = clap::value_parser!(u32).range(1..=ladr_ir::program::MAX_INSTANCES as i64))]
    instances: Option<u32>,
    /// Round-robin rounds K (1–100).
    #[arg(long, default_value_t = 2, value_name = "K",
          value_parser = clap::value_parser!(u32).range(1..=ladr_ir::program::MAX_ROUNDS as i64))]
    rounds: u32,
    /// Loop unwinding and recursion depth U (0–1000).
    #[arg(long, default_value_t = 2, value_name = "U",
          value_parser = clap::value_parser!(u32).range(0..=ladr_ir::program::MAX_UNWIND as i64))]
    unwind: u32,
    /// Loops with a constant bound up to N iterations are unwound completely (0–1000).
    #[arg(long, default_value_t = 100, value_name = "N",
          value_parser = clap::value_parser!(u32).range(0..=ladr_ir::program::MAX_UNWIND as i64))]
    max_unwind: u32,
    /// Check with ILP32.
    #[arg(long = "32")]
    ilp32: bool,
    /// Preprocessor include directory.
    #[arg(short = 'I', value_name = "DIR")]
    include: Vec<String>,
    /// Preprocessor macro definition NAME[=VALUE].
    #[arg(short = 'D', value_name = "NAME[=VALUE]")]
    define: Vec<String>,
    /// The build's `compile_commands.json` (as for `ladr FILE`).
    #[arg(long, value_name = "PATH")]
    compile_commands: Option<PathBuf>,
    /// Seconds each instance's CBMC may run (`timeout` in run.sh, `--time` in slurm.sh);
    /// 0: none.
    #[arg(long, default_value_t = 0, value_name = "SECONDS")]
    timeout: u64,
    /// The CBMC binary run.sh names (default: as for `ladr FILE`); `$LADR_CBMC` overrides
    /// it when the instances run.
    #[arg(long, value_name = "PATH")]
    cbmc: Option<PathBuf>,
}

#[derive(clap::Args, Debug, Clone)]
struct CollectArgs {
    /// The directory `ladr swarm emit` wrote, after its instances ran.
    dir: PathBuf,
    /// Output format (as for `ladr FILE`).
    #[arg(long, value_enum, default_value_t = Format::Text, value_name = "FORMAT")]
    format: Format,
    /// Show every step of every context of the interleaving.
    #[arg(long)]
    steps: bool,
    /// When to use colour in diagnostics.
    #[arg(long, value_enum, default_value_t = Color::Auto, value_name = "WHEN")]
    color: Color,
}

/// Runs `ladr swarm`.
pub fn main(args: &SwarmArgs) -> ExitCode {
    let result = match &args.cmd {
        SwarmCmd::Emit(a) => emit_instances(a).map(|()| 0),
        SwarmCmd::Collect(a) => collect(a),
    };
    match result {
        Ok(code) => ExitCode::from(code),
        Err(failed) => {
            let (e, parsed) = *failed;
            let mut err = codespan_reporting::term::termcolor::StandardStream::stderr(
                color_choice(Color::Auto, false),
            );
            render(&mut err, &e, parsed.as_ref().map(|p| &p.map));
            ExitCode::from(e.kind.exit_status())
        }
    }
}

fn emit_instances(a: &EmitArgs) -> Result<(), Failed> {
    let m = swarm::emit(&swarm::Emit {
        dir: a.dir.clone(),
        files: a.files.clone(),
        instances: a.instances,
        rounds: a.rounds,
        unwind: a.unwind,
        max_unwind: a.max_unwind,
        ilp32: a.ilp32,
        include: a.include.clone(),
        define: a.define.clone(),
        compile_commands: a.compile_commands.clone(),
        timeout: a.timeout,
        cbmc: a.cbmc.clone(),
    })?;
    eprintln!(
        "wrote {n} instances ({rounds} rounds, {unwind} unwindings) to {dir}; run them from \
         there with `xargs -P 8 -I{{}} sh -c {{}} < commands.txt`, `parallel -j 8 < \
         commands.txt` or `sbatch slurm.sh`, then `ladr swarm collect {dir}`",
        n = m.instances,
        rounds = m.rounds,
        unwind = m.unwind,
        dir = a.dir.display()
    );
    Ok(())
}

fn collect(a: &CollectArgs) -> Result<u8, Failed> {
    let t0 = Instant::now();
    let c = swarm::collect(&a.dir)?;
    let verdict = match &c.answer.verdict {
        Verdict::Race => 1,
        Verdict::NoRace => 0,
        Verdict::Unknown { .. } => 3,
    };
    let mut outcome = report::outcome(&c.answer, &c.parsed.path, t0.elapsed().as_secs_f64());
    match a.format {
        Format::Text => {
            let mut out = codespan_reporting::term::termcolor::StandardStream::stdout(
                color_choice(a.color, true),
            );
            report::text::write(&mut out, &outcome, &c.parsed, a.steps);
            emit(&format!(
                "swarm: {} instances; race: {}; no race: {}; no answer: {}\n",
                c.summary.instances,
                list(&c.summary.race),
                list(&c.summary.no_race),
                list(&c.summary.unknown)
            ));
        }
        Format::Json => {
            outcome.swarm = Some(c.summary);
            emit(&format!("{}\n", report::json(&outcome)))
        }
        Format::Sarif => {
            let log = report::sarif::sarif(&outcome, &report::sarif::root(&c.manifest.files[0]));
            emit(&format!("{}\n", report::sarif::to_string(&log)));
        }
        Format::Html => emit(&report::html::html(&outcome)),
    }
    Ok(verdict)
}

/// `[0, 2]` as `0, 2`, or `none`.
fn list(v: &[usize]) -> String {
    if v.is_empty() {
        return "none".into();
    }
    let items: Vec<String> = v.iter().map(|x| x.to_string()).collect();
    items.join(", ")
}
