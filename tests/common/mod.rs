//! Shared helpers of the `inline` and `unwind` tests: run the bounding passes, print, and
//! check the output with gcc.
#![allow(dead_code)]

use ladr::program::{Options, Program};
use std::io::Write;
use std::process::{Command, Stdio};

/// parse → normalise → inline → unwind with bound `unwind`; the printed program (gcc-checked) or the error.
pub fn bound(src: &str, unwind: u32, max_unwind: u32) -> Result<(String, Program), String> {
    let (_, unit, _) = ladr::frontend::parse_text(src, "test.c").map_err(|e| e.to_string())?;
    let opts = Options {
        rounds: 2,
        unwind,
        max_unwind,
    };
    let p = Program::new(unit);
    let p = ladr::passes::normalise::run(p, &opts).map_err(|e| e.to_string())?;
    let p = ladr::passes::inline::run(p, &opts).map_err(|e| e.to_string())?;
    let p = ladr::passes::unwind::run(p, &opts).map_err(|e| e.to_string())?;
    ladr::passes::unwind::check_bounded(&p.unit)?;
    let text = ladr::print::print_unit(&p.unit).text;
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
