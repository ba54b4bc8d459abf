//! Shared helpers of the `inline` and `unwind` tests: run the bounding passes, print, and
//! check the output with gcc.
#![allow(dead_code)]

use ladr_ir::program::{Options, Program};
use std::io::Write;
use std::process::{Command, Stdio};

/// parse → normalise → inline → unwind with bound `unwind`; the printed program (gcc-checked) or the error.
pub fn bound(src: &str, unwind: u32, max_unwind: u32) -> Result<(String, Program), String> {
    let (_, unit, _) = ladr_c::frontend::parse_text(src, "test.c").map_err(|e| e.to_string())?;
    let opts = Options {
        rounds: 2,
        unwind,
        max_unwind,
        ..Default::default()
    };
    let p = Program::new(unit);
    let p = ladr_seq::passes::normalise::run(p, &opts).map_err(|e| e.to_string())?;
    let p = ladr_seq::passes::inline::run(p, &opts).map_err(|e| e.to_string())?;
    let p = ladr_seq::passes::unwind::run(p, &opts).map_err(|e| e.to_string())?;
    ladr_seq::invariants::check_bounded(&p.unit).map_err(|v| v.to_string())?;
    let text = ladr_c::print::print_unit(&p.unit).text;
    gcc_accepts(&text).map_err(|e| format!("gcc rejects:\n{e}\n{text}"))?;
    Ok((text, p))
}

pub fn gcc_accepts(text: &str) -> Result<(), String> {
    let mut child = Command::new("gcc")
        .args(["-fsyntax-only", "-w", "-x", "c", "-"])
        .stdin(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| e.to_string())?;
    child
        .stdin
        .take()
        .ok_or("no stdin")?
        .write_all(text.as_bytes())
        .map_err(|e| e.to_string())?;
    let out = child.wait_with_output().map_err(|e| e.to_string())?;
    if out.status.success() {
        Ok(())
    } else {
        Err(String::from_utf8_lossy(&out.stderr).into_owned())
    }
}

/// Printed output plus the cuts, for snapshots.
pub fn show(r: Result<(String, Program), String>) -> String {
    match r {
        Ok((text, p)) => {
            let cuts: Vec<String> = p
                .cuts
                .iter()
                .map(|c| format!("{:?}@{}", c.kind, c.span.start))
                .collect();
            format!("{text}// cuts: {}\n", cuts.join(", "))
        }
        Err(e) => format!("ERROR: {e}"),
    }
}

/// [`bound`], then `threads`; the printed program (gcc-checked as a whole) without the
/// pthread model and without the declarations of `prelude` (the test's stand-in for
/// `<pthread.h>`), which are the same in every test.
pub fn threads(prelude: &str, src: &str, unwind: u32) -> Result<(String, Program), String> {
    let full = format!("{prelude}\n{src}");
    let (_, unit, _) = ladr_c::frontend::parse_text(&full, "test.c").map_err(|e| e.to_string())?;
    let opts = Options {
        rounds: 2,
        unwind,
        max_unwind: 100,
        ..Default::default()
    };
    let mut p = Program::new(unit);
    for pass in [
        ladr_seq::passes::normalise::run,
        ladr_seq::passes::inline::run,
        ladr_seq::passes::unwind::run,
        ladr_seq::passes::threads::run,
    ] {
        p = pass(p, &opts).map_err(|e| e.to_string())?;
    }
    let text = ladr_c::print::print_unit(&p.unit).text;
    gcc_accepts(&text).map_err(|e| format!("gcc rejects:\n{e}\n{text}"))?;
    let (_, pre, _) =
        ladr_c::frontend::parse_text(prelude, "prelude.h").map_err(|e| e.to_string())?;
    let mut noise = declared_names(&pre);
    noise.extend(declared_names(&ladr_seq::passes::threads::model_unit()));
    let mut shown = p.unit.clone();
    shown.0.retain(|ext| {
        let names = declared_names(&lang_c::ast::TranslationUnit(vec![ext.clone()]));
        names.is_empty() || !names.iter().all(|n| noise.contains(n))
    });
    Ok((ladr_c::print::print_unit(&shown).text, p))
}

/// The names a unit declares at file scope.
fn declared_names(unit: &lang_c::ast::TranslationUnit) -> std::collections::HashSet<String> {
    use ladr_c::syntax::build::{declarator_name, function_name};
    use lang_c::ast::ExternalDeclaration;
    let mut out = std::collections::HashSet::new();
    for ext in &unit.0 {
        match &ext.node {
            ExternalDeclaration::Declaration(d) => {
                for id in &d.node.declarators {
                    if let Some(n) = declarator_name(&id.node.declarator.node) {
                        out.insert(n.to_string());
                    }
                }
            }
            ExternalDeclaration::FunctionDefinition(f) => {
                if let Some(n) = function_name(&f.node) {
                    out.insert(n.to_string());
                }
            }
            ExternalDeclaration::StaticAssert(_) => {}
        }
    }
    out
}

/// Printed output plus the slots (routine, parent) and the thread locals, for snapshots.
pub fn show_threads(r: Result<(String, Program), String>) -> String {
    match r {
        Ok((text, p)) => {
            let slots: Vec<String> = p
                .slots
                .iter()
                .map(|s| match s.parent {
                    Some(parent) => format!("{}={} (by {parent})", s.index, s.routine),
                    None => format!("{}={}", s.index, s.routine),
                })
                .collect();
            let mut locals: Vec<&String> = p.thread_locals.iter().collect();
            locals.sort();
            let locals: Vec<&str> = locals.iter().map(|s| s.as_str()).collect();
            let cuts: Vec<String> = p
                .cuts
                .iter()
                .map(|c| format!("{:?}@{}", c.kind, c.span.start))
                .collect();
            format!(
                "{text}// slots: {}\n// thread locals: {}\n// cuts: {}\n",
                slots.join(", "),
                locals.join(", "),
                cuts.join(", ")
            )
        }
        Err(e) => format!("ERROR: {e}"),
    }
}
