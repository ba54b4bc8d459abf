//! Corpus run of normalise → inline → unwind (U=2) over the SV-COMP inputs: no panic,
//! `check_bounded` holds, gcc accepts the printed output. Failures are grouped by message.
//! Run with `cargo test --release --test it -- bound_corpus:: --ignored --nocapture`.

use crate::common;

use ladr_ir::program::{Options, Program};
use std::collections::BTreeMap;

#[test]
#[ignore]
fn svcomp_corpus_bounds() {
    let Some(root) = common::svcomp_root() else {
        return;
    };
    let index = std::fs::read_to_string(root.join("index.tsv")).expect("read index.tsv");
    let opts = Options {
        rounds: 2,
        unwind: 2,
        max_unwind: 100,
        ..Default::default()
    };
    let start = std::time::Instant::now();
    let mut groups: BTreeMap<String, Vec<String>> = BTreeMap::new();
    let (mut total, mut front, mut ok) = (0, 0, 0);
    for line in index.lines().skip(1) {
        let Some(file) = line.split('\t').nth(1) else {
            continue;
        };
        let path = root.join("c").join(file);
        let Ok(text) = std::fs::read_to_string(&path) else {
            continue;
        };
        total += 1;
        let Ok((_, unit, _)) = ladr_c::frontend::parse_text(&text, file) else {
            continue;
        };
        let Ok(p) = ladr_seq::passes::normalise::run(Program::new(unit), &opts) else {
            continue;
        };
        front += 1;
        let opts = opts.clone();
        let r = std::panic::catch_unwind(move || {
            let p = ladr_seq::passes::inline::run(p, &opts).map_err(|e| e.message)?;
            let p = ladr_seq::passes::unwind::run(p, &opts).map_err(|e| e.message)?;
            ladr_seq::invariants::check_bounded(&p).map_err(|e| format!("check: {e}"))?;
            let out = ladr_c::print::print_unit(&p.unit).text;
            common::gcc_accepts(&out).map_err(|e| {
                let first = e.lines().find(|l| l.contains("error")).unwrap_or("?");
                format!(
                    "gcc: {}",
                    first.split("error:").nth(1).unwrap_or(first).trim()
                )
            })
        });
        match r {
            Ok(Ok(())) => ok += 1,
            Ok(Err(e)) if e.starts_with("check") => groups
                .entry(e.chars().take(90).collect())
                .or_default()
                .push(file.to_string()),
            Ok(Err(e)) => groups.entry(group(&e)).or_default().push(file.to_string()),
            Err(_) => groups
                .entry("PANIC".into())
                .or_default()
                .push(file.to_string()),
        }
    }
    eprintln!(
        "{total} inputs, {front} parse+normalise, {ok} bounded ok, {:.1}s",
        start.elapsed().as_secs_f64()
    );
    for (g, files) in &groups {
        eprintln!("{:4}  {g}   e.g. {}", files.len(), files[0]);
    }
    assert!(
        !groups.contains_key("PANIC"),
        "panics: {:?}",
        groups["PANIC"]
    );
}

/// The message with names in backquotes/quotes blanked, so similar failures group together.
fn group(msg: &str) -> String {
    let mut out = String::new();
    let mut inside = false;
    for c in msg.chars() {
        match c {
            '`' | '‘' | '’' => {
                if !inside {
                    out.push_str("`_`");
                }
                inside = !inside;
            }
            _ if !inside => out.push(c),
            _ => {}
        }
    }
    out.chars().take(100).collect()
}
