//! `ladr swarm emit DIR FILE...` and `ladr swarm collect DIR`: one bound pair's check split
//! into self-contained swarm instances ([`ladr_check::recorded::Swarm`]) that existing
//! engines run unchanged — `xargs -P`, GNU parallel, a Slurm job array — and the instances'
//! CBMC outputs turned back into an answer ([`ladr_check::recorded::swarm`]).
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

use ladr_c::diag::{Error, ErrorKind};
use ladr_c::frontend::{self, Parsed};
use ladr_cbmc::files::write_no_follow;
use ladr_cbmc::SEQ_FILE;
use ladr_check::recorded::{self, InstanceState, Swarm};
use ladr_check::Answer;
use ladr_ir::program::Options;
use ladr_report::schedule::SwarmDoc;
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};
use std::path::{Path, PathBuf};

/// The manifest's file name.
pub const MANIFEST: &str = "manifest.json";

/// An error, with the parsed program when there is one to locate it in.
pub type Failed = Box<(Error, Option<Parsed>)>;

fn usage(m: String) -> Failed {
    Box::new((Error::new(ErrorKind::Usage, m), None))
}

/// `DIR/manifest.json`: what collect needs to make the instances again. The fields are in
/// the order written (by name).
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Manifest {
    pub compile_commands: Option<PathBuf>,
    /// The contexts the first racing access can end (rounds × threads).
    pub contexts: u64,
    pub cpp_args: Vec<String>,
    pub files: Vec<PathBuf>,
    pub ilp32: bool,
    pub instances: u32,
    pub max_unwind: u32,
    pub rounds: u32,
    /// 1.
    pub schema: u32,
    /// Seconds each instance's CBMC may run (0: no limit).
    pub timeout_s: u64,
    pub tool: Tool,
    pub unwind: u32,
}

/// The tool that wrote a manifest.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Tool {
    pub name: String,
    pub version: String,
}

impl Manifest {
    /// The bounds of the check the instances split.
    pub fn bounds(&self) -> Options {
        Options {
            rounds: self.rounds,
            unwind: self.unwind,
            max_unwind: self.max_unwind,
            ..Options::default()
        }
    }
}

/// What `ladr swarm emit` is asked to write.
#[derive(Clone, Debug)]
pub struct Emit {
    /// Where (created; must be empty or missing).
    pub dir: PathBuf,
    /// The C files of the program.
    pub files: Vec<PathBuf>,
    /// How many instances (none: one per context).
    pub instances: Option<u32>,
    pub rounds: u32,
    pub unwind: u32,
    pub max_unwind: u32,
    pub ilp32: bool,
    /// `-I` directories and `-D` definitions.
    pub include: Vec<String>,
    pub define: Vec<String>,
    pub compile_commands: Option<PathBuf>,
    /// Seconds each instance's CBMC may run (0: no limit).
    pub timeout: u64,
    /// The CBMC binary run.sh names (none: as for `ladr FILE`).
    pub cbmc: Option<PathBuf>,
}

fn load(m: &Manifest) -> Result<Parsed, Failed> {
    let db = match m
        .compile_commands
        .as_deref()
        .map(crate::compdb::Database::load)
    {
        Some(Err(e)) => return Err(Box::new((e, None))),
        Some(Ok(db)) => Some(db),
        None => None,
    };
    let inputs = crate::compdb::inputs(&m.files, db.as_ref(), &m.cpp_args);
    frontend::link::load_all(&inputs).map_err(|e| Box::new((e, None)))
}

/// Single-quoted for `sh`.
fn quote(s: &str) -> String {
    format!("'{}'", s.replace('\'', r"'\''"))
}

/// Writes the instances `a` asks for into `a.dir`, with `commands.txt`, `slurm.sh` and the
/// manifest, which it returns.
pub fn emit(a: &Emit) -> Result<Manifest, Failed> {
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
    let mut m = Manifest {
        compile_commands: a.compile_commands.as_deref().map(abs),
        contexts: 0,
        cpp_args,
        files: a.files.iter().map(|f| abs(f)).collect(),
        ilp32: a.ilp32,
        instances: 1,
        max_unwind: a.max_unwind,
        rounds: a.rounds,
        schema: 1,
        timeout_s: a.timeout,
        tool: Tool {
            name: "ladr".into(),
            version: env!("CARGO_PKG_VERSION").into(),
        },
        unwind: a.unwind,
    };
    let parsed = load(&m)?;
    let wanted = a.instances.unwrap_or(u32::MAX);
    let swarm = match Swarm::new(&parsed, &m.bounds(), wanted) {
        Ok(s) => s,
        Err(e) => return Err(Box::new((e, Some(parsed)))),
    };
    (m.contexts, m.instances) = (swarm.contexts, swarm.instances);
    let cbmc_path = ladr_cbmc::locate(a.cbmc.as_deref())
        .map_err(|e| Box::new((Error::new(ErrorKind::Backend, e.to_string()), None)))?;
    let mut copts = ladr_cbmc::Options::new(cbmc_path.clone());
    copts.ilp32 = m.ilp32;
    if swarm.arrays_uf {
        copts = copts.with_arrays_uf();
    }
    std::fs::create_dir_all(&a.dir).map_err(|e| io(&a.dir, e))?;
    let write = |path: PathBuf, text: &str| {
        write_no_follow(&path, text.as_bytes()).map_err(|e| io(&path, e))
    };
    let args: Vec<String> = ladr_cbmc::arguments(&copts, Path::new(SEQ_FILE))
        .iter()
        .map(|s| quote(&s.to_string_lossy()))
        .collect();
    let cbmc = quote(&cbmc_path.display().to_string());
    let mut commands = String::new();
    for i in 0..m.instances {
        let t = swarm.instance(i).map_err(|e| Box::new((e, None)))?;
        let d = a.dir.join(i.to_string());
        std::fs::create_dir_all(&d).map_err(|e| io(&d, e))?;
        write(d.join(SEQ_FILE), &t.printed.text)?;
        write(d.join("run.sh"), &run_script(&m, &swarm, i, &cbmc, &args))?;
        commands.push_str(&format!("sh {i}/run.sh\n"));
    }
    write(a.dir.join("commands.txt"), &commands)?;
    write(a.dir.join("slurm.sh"), &slurm_script(&m))?;
    let text = serde_json::to_string_pretty(&m).unwrap_or_default();
    write(a.dir.join(MANIFEST), &format!("{text}\n"))?;
    Ok(m)
}

/// Instance `i`'s `run.sh`: runs `cbmc` with `args` on its program, writes CBMC's output
/// and exit status beside it.
fn run_script(m: &Manifest, swarm: &Swarm, i: u32, cbmc: &str, args: &[String]) -> String {
    let part = swarm.part(i);
    let limit = if m.timeout_s > 0 {
        format!("timeout {} ", m.timeout_s)
    } else {
        String::new()
    };
    format!(
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
        n = m.instances,
        rounds = m.rounds,
        unwind = m.unwind,
        lo = part.start,
        hi = part.end,
        contexts = m.contexts,
        args = args.join(" "),
    )
}

/// `slurm.sh`: the instances as a Slurm job array.
fn slurm_script(m: &Manifest) -> String {
    let time = if m.timeout_s > 0 {
        // Slurm's --time is in minutes; a minute more for the start.
        format!("#SBATCH --time={}\n", m.timeout_s.div_ceil(60) + 1)
    } else {
        String::new()
    };
    format!(
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
        last = m.instances - 1,
    )
}

/// Reads `dir`'s manifest, checked like the command line: the bounds in range, and the
/// preprocessor options through the allow-list (a tampered manifest must not run
/// `gcc -wrapper …`).
pub fn read_manifest(dir: &Path) -> Result<Manifest, Failed> {
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
    Ok(Manifest {
        compile_commands: v["compile_commands"].as_str().map(PathBuf::from),
        // Not needed to collect: the instances are made again.
        contexts: v["contexts"].as_u64().unwrap_or(0),
        cpp_args,
        files: files.into_iter().map(PathBuf::from).collect(),
        ilp32: v["ilp32"].as_bool().ok_or_else(|| bad("ilp32"))?,
        instances,
        max_unwind,
        rounds,
        schema: 1,
        timeout_s: v["timeout_s"].as_u64().unwrap_or(0),
        tool: Tool {
            name: v["tool"]["name"].as_str().unwrap_or_default().into(),
            version: v["tool"]["version"].as_str().unwrap_or_default().into(),
        },
        unwind,
    })
}

/// What `ladr swarm collect` found: the answer, with the program it is about, the
/// manifest, and what each instance gave.
pub struct Collected {
    pub answer: Answer,
    pub parsed: Parsed,
    pub manifest: Manifest,
    pub summary: SwarmDoc,
}

/// Reads the instances' CBMC outputs in `dir` (which `emit` wrote) and answers as a check
/// does: a race found by any instance, "no race" when every instance found none.
pub fn collect(dir: &Path) -> Result<Collected, Failed> {
    let m = read_manifest(dir)?;
    let parsed = load(&m)?;
    let swarm = match Swarm::new(&parsed, &m.bounds(), m.instances) {
        Ok(s) => s,
        Err(e) => return Err(Box::new((e, Some(parsed)))),
    };
    let n = swarm.instances;
    if n != m.instances {
        return Err(usage(format!(
            "{}: the program has changed since `ladr swarm emit` ({} instances now, {} then)",
            dir.display(),
            n,
            m.instances
        )));
    }
    let mut instances = vec![];
    for i in 0..n {
        let d = dir.join(i.to_string());
        let t = match swarm.instance(i) {
            Ok(t) => t,
            Err(e) => return Err(Box::new((e, Some(parsed)))),
        };
        let seq = d.join(SEQ_FILE);
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
    drop(swarm);
    let (answer, states) = recorded::swarm(&parsed, &m.bounds(), instances);
    let mut summary = SwarmDoc {
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
    Ok(Collected {
        answer,
        parsed,
        manifest: m,
        summary,
    })
}
