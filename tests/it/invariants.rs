//! The invariants between passes (`ladr_seq::invariants`): translation with the checks on
//! (`Options::check_ir`) over the e2e programs and the SV-COMP inputs, and a survey that
//! checks every invariant after every pass to show which ones hold where.
//! Translation only, no CBMC.

use crate::common;

use ladr_c::diag::ErrorKind;
use ladr_ir::abi;
use ladr_ir::program::{Options, Program};
use ladr_seq::invariants::{self, Invariant};
use ladr_seq::pipeline::{translate, Stage, PASSES};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

fn checked() -> Options {
    Options {
        check_ir: true,
        ..Options::default()
    }
}

fn e2e_programs() -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/e2e");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("tests/e2e")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "c"))
        .collect();
    files.sort();
    files
}

/// The distinct input files of the SV-COMP corpus, or `None` (loudly) when it is absent.
fn corpus() -> Option<Vec<PathBuf>> {
    let root = common::svcomp_root()?;
    let index = std::fs::read_to_string(root.join("index.tsv")).expect("index.tsv");
    let mut inputs: Vec<PathBuf> = index
        .lines()
        .skip(1)
        .filter_map(|l| l.split('\t').nth(1))
        .map(|f| root.join("c").join(f))
        .collect();
    inputs.sort();
    inputs.dedup();
    Some(inputs)
}

fn load(path: &Path) -> Option<ladr_c::frontend::Parsed> {
    ladr_c::frontend::load(path, &Default::default()).ok()
}

#[test]
fn e2e_programs_keep_the_invariants() {
    let mut failures = vec![];
    for path in e2e_programs() {
        let parsed = load(&path).unwrap_or_else(|| panic!("{} does not parse", path.display()));
        if let Err(e) = translate(parsed.unit, &checked(), Stage::Seq, |_, _| {}) {
            failures.push(format!("{}: {}", path.display(), e.one_line(None)));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn svcomp_inputs_keep_the_invariants() {
    let Some(inputs) = corpus() else {
        return;
    };
    let (mut translated, mut refused) = (0, 0);
    let mut broken = vec![];
    for path in &inputs {
        let Some(parsed) = load(path) else {
            refused += 1;
            continue;
        };
        match translate(parsed.unit, &checked(), Stage::Seq, |_, _| {}) {
            Ok(_) => translated += 1,
            Err(e) if e.kind == ErrorKind::Internal => {
                broken.push(format!("{}: {}", path.display(), e.message))
            }
            // Unsupported constructs and the inlining budget: not invariant violations.
            Err(_) => refused += 1,
        }
    }
    eprintln!(
        "corpus: {} inputs, {translated} translated with checks, {refused} refused before, {} broken",
        inputs.len(),
        broken.len()
    );
    assert!(broken.is_empty(), "{}", broken.join("\n"));
}

/// Every invariant after every pass, over the e2e programs and the corpus: for each pass
/// and invariant, how many programs break it, with an example. Run with
/// `cargo test --release --test it -- invariants:: --ignored --nocapture`.
#[test]
#[ignore]
fn survey_every_invariant_after_every_pass() {
    let mut inputs = e2e_programs();
    inputs.extend(corpus().unwrap_or_default());
    let all = [
        Invariant::N1,
        Invariant::N2,
        Invariant::N3,
        Invariant::N4,
        Invariant::N5,
        Invariant::N6,
        Invariant::Loop,
        Invariant::BackwardGoto,
        Invariant::CallOfDefinedFunction,
    ];
    // (pass index, invariant) -> (programs, example)
    let mut seen: BTreeMap<(usize, Invariant), (usize, String)> = BTreeMap::new();
    let mut classes: BTreeMap<(usize, Invariant, String), (usize, String)> = BTreeMap::new();
    let mut reached = vec![0usize; PASSES.len()];
    for path in &inputs {
        let Some(parsed) = load(path) else {
            continue;
        };
        let opts = Options::default();
        let mut p = Program::new(parsed.unit);
        for (k, pass) in PASSES.iter().enumerate() {
            p = match (pass.run)(p, &opts) {
                Ok(p) => p,
                Err(_) => break,
            };
            reached[k] += 1;
            let vs = invariants::check(&p, &all);
            let mut per: BTreeMap<Invariant, &invariants::Violation> = BTreeMap::new();
            for v in &vs {
                per.entry(v.invariant).or_insert(v);
                let class: String = v.message.split('`').next().unwrap_or("").to_string();
                let fun = if abi::is_slot_function(&v.function) {
                    "slot"
                } else if abi::is_model_function(&v.function) {
                    "model"
                } else {
                    "user"
                };
                let e = classes
                    .entry((k, v.invariant, format!("[{fun}] {class}")))
                    .or_default();
                e.0 += 1;
                if e.1.is_empty() {
                    e.1 = format!("{}: {v}", path.file_name().unwrap().to_string_lossy());
                }
            }
            for (inv, v) in per {
                let e = seen.entry((k, inv)).or_insert((0, String::new()));
                e.0 += 1;
                if e.1.is_empty() {
                    e.1 = format!("{}: {v}", path.file_name().unwrap().to_string_lossy());
                }
            }
        }
    }
    for (k, pass) in PASSES.iter().enumerate() {
        let (name, holds) = (pass.id, pass.holds);
        eprintln!("after {name} ({} programs):", reached[k]);
        for inv in all {
            let mark = if holds.contains(&inv) {
                "checked"
            } else {
                "       "
            };
            match seen.get(&(k, inv)) {
                None => eprintln!("  {mark} {inv:<22} holds"),
                Some((n, ex)) => {
                    let ex: String = ex.chars().take(160).collect();
                    eprintln!("  {mark} {inv:<22} broken in {n}: {ex}")
                }
            }
        }
    }
    eprintln!("violation classes (pass, invariant, [where] message: count):");
    for ((k, inv, class), (n, ex)) in &classes {
        let ex: String = ex.chars().take(200).collect();
        eprintln!(
            "  {:<9} {inv:<22} {class}: {n}, e.g. {ex}",
            PASSES[*k].id.name()
        );
    }
}
