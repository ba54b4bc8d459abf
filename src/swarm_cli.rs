//! `ladr swarm emit DIR FILE...` and `ladr swarm collect DIR`: one bound pair's check split
//! into self-contained swarm instances (`ladr_seq::swarm`) that existing engines run
//! unchanged — `xargs -P`, GNU parallel, a Slurm job array — and the instances' CBMC
//! outputs turned back into the usual report.
//!
//! ```text
//! DIR/manifest.json   what collect needs to translate again: files, options, instances
//! DIR/commands.txt    one command per line (`sh 0/run.sh`), run from DIR
//! DIR/slurm.sh        `sbatch slurm.sh` from DIR: a job array, one task per instance
//! DIR/<i>/seq.i       instance i's sequential program
//! DIR/<i>/run.sh      the exact CBMC command line; writes cbmc.json, cbmc.stderr, cbmc.exit
//! ```
//!
//! Collect translates the recorded inputs again with the recorded options (translation is
//! deterministic) and checks that every instance's program is the one in `DIR/<i>/seq.i`,
//! so a counterexample is mapped back through the very line map of the program CBMC ran.

use super::{color_choice, emit, Color, Format};
use clap::Subcommand;
use ladr_c::diag::{render, Error, ErrorKind};
use ladr_c::frontend::{self, Parsed};
use ladr_c::print::print_unit;
use ladr_check::answer::Verdict;
use ladr_check::recorded::{self, InstanceState};
use ladr_check::Translated;
use ladr_ir::program::Options;
use ladr_report as report;
use ladr_seq::pipeline::{translate, Stage};
use ladr_seq::swarm;
use serde_json::{json, Value};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::{Duration, Instant};

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

/// The manifest's file name.
pub const MANIFEST: &str = "manifest.json";

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

/// An error, with the parsed program when there is one to locate it in.
type Failed = Box<(Error, Option<Parsed>)>;

fn usage(m: String) -> Failed {
    Box::new((Error::new(ErrorKind::Usage, m), None))
}

/// What collect needs to make the instances again.
struct Recorded {
    files: Vec<PathBuf>,
    cpp_args: Vec<String>,
    compile_commands: Option<PathBuf>,
    opts: Options,
    ilp32: bool,
    instances: u32,
}

fn load(r: &Recorded) -> Result<Parsed, Failed> {
    let db = match r
        .compile_commands
        .as_deref()
        .map(ladr_project::compdb::Database::load)
    {
        Some(Err(e)) => return Err(Box::new((e, None))),
        Some(Ok(db)) => Some(db),
        None => None,
    };
    let inputs = ladr_project::compdb::inputs(&r.files, db.as_ref(), &r.cpp_args);
    frontend::link::load_all(&inputs).map_err(|e| Box::new((e, None)))
}

/// Instance `i`'s program (pure: the same inputs give the same text).
fn instance(
    parsed: &Parsed,
    program: &ladr_ir::program::Program,
    r: &Recorded,
    i: u32,
) -> Result<Translated, Error> {
    let p = if r.instances > 1 {
        swarm::restrict(program.clone(), r.opts.rounds, r.instances, i)?
    } else {
        program.clone()
    };
    let _ = parsed;
    let printed = print_unit(&p.unit);
    Ok(Translated {
        program: p,
        printed,
        time: Duration::ZERO,
    })
}

/// Single-quoted for `sh`.
fn quote(s: &str) -> String {
    format!("'{}'", s.replace('\'', r"'\''"))
}

fn emit_instances(a: &EmitArgs) -> Result<(), Failed> {
    let io =
        |what: &Path, e: std::io::Error| usage(format!("cannot write {}: {e}", what.display()));
    if a.dir.exists()
        && std::fs::read_dir(&a.dir)
            .map_err(|e| io(&a.dir, e))?
            .next()
            .is_some()
    {
        return Err(usage(format!(
            "{} is not empty: give a new directory",
            a.dir.display()
        )));
    }
    let abs = |p: &Path| std::fs::canonicalize(p).unwrap_or_else(|_| p.to_path_buf());
    let mut cpp_args: Vec<String> = a
        .include
        .iter()
        .map(|i| format!("-I{}", abs(Path::new(i)).display()))
        .collect();
    cpp_args.extend(a.define.iter().map(|d| format!("-D{d}")));
    let mut r = Recorded {
        files: a.files.iter().map(|f| abs(f)).collect(),
        cpp_args,
        compile_commands: a.compile_commands.as_deref().map(abs),
        opts: Options {
            rounds: a.rounds,
            unwind: a.unwind,
            max_unwind: a.max_unwind,
            ..Options::default()
        },
        ilp32: a.ilp32,
        instances: 1,
    };
    let parsed = load(&r)?;
    let program = match translate(parsed.unit.clone(), &r.opts, Stage::Seq, |_, _| {}) {
        Ok(p) => p,
        Err(e) => return Err(Box::new((e, Some(parsed)))),
    };
    let contexts = swarm::contexts(&program, r.opts.rounds);
    r.instances = swarm::instances(&program, r.opts.rounds, a.instances.unwrap_or(u32::MAX));
    let cbmc_path = ladr_cbmc::locate(a.cbmc.as_deref())
        .map_err(|e| Box::new((Error::new(ErrorKind::Backend, e.to_string()), None)))?;
    let mut copts = ladr_cbmc::Options::new(cbmc_path.clone());
    copts.ilp32 = r.ilp32;
    if ladr_check::wants_arrays_uf(&program) {
        copts = copts.with_arrays_uf();
    }
    std::fs::create_dir_all(&a.dir).map_err(|e| io(&a.dir, e))?;
    let write = |path: PathBuf, text: &str| {
        ladr_check::files::write_no_follow(&path, text.as_bytes()).map_err(|e| io(&path, e))
    };
    let mut commands = String::new();
    for i in 0..r.instances {
        let t = instance(&parsed, &program, &r, i).map_err(|e| Box::new((e, None)))?;
        let d = a.dir.join(i.to_string());
        std::fs::create_dir_all(&d).map_err(|e| io(&d, e))?;
        write(d.join(ladr_check::SEQ_FILE), &t.printed.text)?;
        let args: Vec<String> = ladr_cbmc::arguments(&copts, Path::new(ladr_check::SEQ_FILE))
            .iter()
            .map(|s| quote(&s.to_string_lossy()))
            .collect();
        let part = swarm::part(contexts, r.instances, i);
        let limit = if a.timeout > 0 {
            format!("timeout {} ", a.timeout)
        } else {
            String::new()
        };
        let script = format!(
            "#!/bin/sh\n\
             # ladr swarm instance {i} of {n}: {rounds} rounds, {unwind} unwindings; the context\n\
             # of the first racing access in {lo}..{hi} of 0..{contexts}.\n\
             # Runs CBMC on seq.i and writes cbmc.json (its output), cbmc.stderr and cbmc.exit\n\
             # (its exit status: 0 no race, 10 race) here; exits 0 when CBMC gave a verdict.\n\
             cd \"$(dirname \"$0\")\" || exit 2\n\
             CBMC=\"${{LADR_CBMC:-}}\"\n\
             [ -n \"$CBMC\" ] || CBMC={cbmc}\n\
             {limit}\"$CBMC\" {args} > cbmc.json 2> cbmc.stderr\n\
             status=$?\n\
             echo \"$status\" > cbmc.exit\n\
             [ \"$status\" -eq 0 ] || [ \"$status\" -eq 10 ]\n",
            n = r.instances,
            rounds = r.opts.rounds,
            unwind = r.opts.unwind,
            lo = part.start,
            hi = part.end,
            cbmc = quote(&cbmc_path.display().to_string()),
            args = args.join(" "),
        );
        write(d.join("run.sh"), &script)?;
        commands.push_str(&format!("sh {i}/run.sh\n"));
    }
    write(a.dir.join("commands.txt"), &commands)?;
    let time = if a.timeout > 0 {
        // Slurm's --time is in minutes; a minute more for the start.
        format!("#SBATCH --time={}\n", a.timeout.div_ceil(60) + 1)
    } else {
        String::new()
    };
    let slurm = format!(
        "#!/bin/sh\n\
         # The swarm instances of ladr as a Slurm job array: `cd DIR && sbatch slurm.sh`,\n\
         # then `ladr swarm collect DIR` when all tasks have ended.\n\
         #SBATCH --job-name=ladr-swarm\n\
         #SBATCH --array=0-{last}\n\
         #SBATCH --ntasks=1\n\
         #SBATCH --cpus-per-task=1\n\
         #SBATCH --output=slurm-%A_%a.out\n\
         {time}\
         cd \"${{SLURM_SUBMIT_DIR:-.}}\" || exit 2\n\
         exec sh \"$SLURM_ARRAY_TASK_ID/run.sh\"\n",
        last = r.instances - 1,
    );
    write(a.dir.join("slurm.sh"), &slurm)?;
    let manifest = json!({
        "schema": 1,
        "tool": { "name": "ladr", "version": env!("CARGO_PKG_VERSION") },
        "files": r.files,
        "cpp_args": r.cpp_args,
        "compile_commands": r.compile_commands,
        "rounds": r.opts.rounds,
        "unwind": r.opts.unwind,
        "max_unwind": r.opts.max_unwind,
        "ilp32": r.ilp32,
        "contexts": contexts,
        "instances": r.instances,
        "timeout_s": a.timeout,
    });
    write(
        a.dir.join(MANIFEST),
        &format!(
            "{}\n",
            serde_json::to_string_pretty(&manifest).unwrap_or_default()
        ),
    )?;
    eprintln!(
        "wrote {n} instances ({rounds} rounds, {unwind} unwindings) to {dir}; run them from \
         there with `xargs -P 8 -I{{}} sh -c {{}} < commands.txt`, `parallel -j 8 < \
         commands.txt` or `sbatch slurm.sh`, then `ladr swarm collect {dir}`",
        n = r.instances,
        rounds = r.opts.rounds,
        unwind = r.opts.unwind,
        dir = a.dir.display()
    );
    Ok(())
}

fn read_manifest(dir: &Path) -> Result<Recorded, Failed> {
    let path = dir.join(MANIFEST);
    let text = std::fs::read_to_string(&path)
        .map_err(|e| usage(format!("cannot read {}: {e}", path.display())))?;
    let v: Value = serde_json::from_str(&text)
        .map_err(|e| usage(format!("{} is not a swarm manifest: {e}", path.display())))?;
    let bad = |f: &str| usage(format!("{}: `{f}` is missing or wrong", path.display()));
    if v["schema"] != json!(1) {
        return Err(bad("schema"));
    }
    let num = |f: &str| {
        v[f].as_u64()
            .and_then(|n| u32::try_from(n).ok())
            .ok_or_else(|| bad(f))
    };
    let strings = |f: &str| -> Result<Vec<String>, Failed> {
        v[f].as_array()
            .ok_or_else(|| bad(f))?
            .iter()
            .map(|s| s.as_str().map(String::from).ok_or_else(|| bad(f)))
            .collect()
    };
    // Checked like the command line: the bounds in range, and the preprocessor options
    // through the allow-list (a tampered manifest must not run `gcc -wrapper …`).
    let (rounds, unwind, max_unwind) = (num("rounds")?, num("unwind")?, num("max_unwind")?);
    ladr_ir::program::check_bounds(rounds, unwind, max_unwind).map_err(|m| {
        // `rounds = 0: give …` → `` `rounds` = 0: give … ``: the manifest's field.
        let (field, rest) = m.split_once(" = ").unwrap_or((m.as_str(), ""));
        usage(format!("{}: `{field}` = {rest}", path.display()))
    })?;
    let instances = num("instances")?;
    if !(1..=ladr_ir::program::MAX_INSTANCES).contains(&instances) {
        return Err(usage(format!(
            "{}: `instances` = {instances}: give 1 to {}",
            path.display(),
            ladr_ir::program::MAX_INSTANCES
        )));
    }
    let cpp_args = strings("cpp_args")?;
    ladr_c::frontend::cpp_options::check(&cpp_args)
        .map_err(|(_, m)| usage(format!("{}: `cpp_args`: {m}", path.display())))?;
    let files = strings("files")?;
    if files.is_empty() {
        return Err(bad("files"));
    }
    Ok(Recorded {
        files: files.into_iter().map(PathBuf::from).collect(),
        cpp_args,
        compile_commands: v["compile_commands"].as_str().map(PathBuf::from),
        opts: Options {
            rounds,
            unwind,
            max_unwind,
            ..Options::default()
        },
        ilp32: v["ilp32"].as_bool().ok_or_else(|| bad("ilp32"))?,
        instances,
    })
}

fn collect(a: &CollectArgs) -> Result<u8, Failed> {
    let t0 = Instant::now();
    let r = read_manifest(&a.dir)?;
    let parsed = load(&r)?;
    let program = match translate(parsed.unit.clone(), &r.opts, Stage::Seq, |_, _| {}) {
        Ok(p) => p,
        Err(e) => return Err(Box::new((e, Some(parsed)))),
    };
    let n = swarm::instances(&program, r.opts.rounds, r.instances);
    if n != r.instances {
        return Err(usage(format!(
            "{}: the program has changed since `ladr swarm emit` ({} instances now, {} then)",
            a.dir.display(),
            n,
            r.instances
        )));
    }
    let mut instances = vec![];
    for i in 0..n {
        let d = a.dir.join(i.to_string());
        let t = match instance(&parsed, &program, &r, i) {
            Ok(t) => t,
            Err(e) => return Err(Box::new((e, Some(parsed)))),
        };
        let seq = d.join(ladr_check::SEQ_FILE);
        match std::fs::read_to_string(&seq) {
            Ok(text) if text == t.printed.text => {}
            Ok(_) => {
                return Err(usage(format!(
                    "{} differs from a fresh translation of the recorded inputs: the files \
                     or ladr changed since `ladr swarm emit`",
                    seq.display()
                )))
            }
            Err(e) => return Err(usage(format!("cannot read {}: {e}", seq.display()))),
        }
        let outcome = std::fs::read_to_string(d.join("cbmc.json"))
            .ok()
            .map(|stdout| {
                let stderr = std::fs::read_to_string(d.join("cbmc.stderr")).unwrap_or_default();
                let exit_code = std::fs::read_to_string(d.join("cbmc.exit"))
                    .ok()
                    .and_then(|s| s.trim().parse::<i32>().ok());
                recorded::cbmc_outcome(exit_code, stdout, stderr)
            });
        instances.push((t, outcome));
    }
    let (answer, states) = recorded::swarm(&parsed, &r.opts, instances);
    let mut summary = report::schedule::SwarmDoc {
        instances: n as usize,
        ..Default::default()
    };
    for (i, state) in states.iter().enumerate() {
        match state {
            InstanceState::Race => summary.race.push(i),
            InstanceState::NoRace => summary.no_race.push(i),
            InstanceState::Unknown => summary.unknown.push(i),
        }
    }
    let verdict = match &answer.verdict {
        Verdict::Race => 1,
        Verdict::NoRace => 0,
        Verdict::Unknown { .. } => 3,
    };
    let mut outcome = report::outcome(&answer, &parsed.path, t0.elapsed().as_secs_f64());
    match a.format {
        Format::Text => {
            let mut out = codespan_reporting::term::termcolor::StandardStream::stdout(
                color_choice(a.color, true),
            );
            report::text::write(&mut out, &outcome, &parsed, a.steps);
            emit(&format!(
                "swarm: {n} instances; race: {}; no race: {}; no answer: {}\n",
                list(&summary.race),
                list(&summary.no_race),
                list(&summary.unknown)
            ));
        }
        Format::Json => {
            outcome.swarm = Some(summary);
            emit(&format!("{}\n", report::json(&outcome)))
        }
        Format::Sarif => {
            let log = report::sarif::sarif(&outcome, &report::sarif::root(&r.files[0]));
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
