//! Corpus check of `ladr_c::print` on the SV-COMP inputs in `common::svcomp_root()`'s `c/`
//! (skipped with a message when the corpus is missing): every file lang-c parses must print to C that gcc accepts
//! and that is a print → parse → print fixpoint. Files lang-c cannot parse are counted and grouped
//! by the word at the error position. Runs the files on all cores.

use crate::common;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use ladr_c::print::print_unit;
use lang_c::driver::{parse_preprocessed, Config, SyntaxError};

fn collect(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(rd) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in rd.flatten() {
        let p = entry.path();
        if p.is_dir() {
            collect(&p, out);
        } else if matches!(p.extension().and_then(|e| e.to_str()), Some("i" | "c")) {
            out.push(p);
        }
    }
}

fn gcc_check(path: &Path) -> Result<(), String> {
    let out = Command::new("gcc")
        .args(["-fsyntax-only", "-w", "-x", "c"])
        .arg(path)
        .output()
        .map_err(|e| e.to_string())?;
    if out.status.success() {
        Ok(())
    } else {
        Err(String::from_utf8_lossy(&out.stderr).into_owned())
    }
}

fn gcc_accepts_text(text: &str) -> Result<(), String> {
    let mut f = tempfile::Builder::new().suffix(".c").tempfile().unwrap();
    std::io::Write::write_all(&mut f, text.as_bytes()).unwrap();
    gcc_check(f.path())
}

/// The word (or character) at the syntax error, used to group parse failures.
fn error_word(src: &str, e: &SyntaxError) -> String {
    let rest = &src[e.offset.min(src.len())..];
    let word: String = rest
        .chars()
        .take_while(|c| c.is_alphanumeric() || *c == '_')
        .collect();
    if word.is_empty() {
        rest.chars()
            .next()
            .map(|c| c.to_string())
            .unwrap_or_default()
    } else {
        word
    }
}

/// Replaces `$` inside identifiers by `_S_` (outside string and character literals).
fn rename_dollars(src: &str) -> String {
    let mut out = String::with_capacity(src.len());
    let mut quote: Option<char> = None;
    let mut escaped = false;
    for c in src.chars() {
        match quote {
            Some(q) => {
                if escaped {
                    escaped = false;
                } else if c == '\\' {
                    escaped = true;
                } else if c == q || c == '\n' {
                    quote = None;
                }
                out.push(c);
            }
            None => {
                if c == '"' || c == '\'' {
                    quote = Some(c);
                }
                if c == '$' {
                    out.push_str("_S_");
                } else {
                    out.push(c);
                }
            }
        }
    }
    out
}

enum Outcome {
    Ok(Duration, bool),
    #[allow(dead_code)] // the message is kept for debugging
    PreprocessFailed(String),
    ParseFailed(String),
    Bad(String),
}

fn check_file(path: &Path) -> Outcome {
    // On a `.i`, `-fpreprocessed` makes `gcc -E` only remove comments.
    let is_i = path.extension().and_then(|e| e.to_str()) == Some("i");
    let mut cmd = Command::new("gcc");
    cmd.args(["-E", "-w", "-x", "c"]);
    if is_i {
        cmd.arg("-fpreprocessed");
    }
    let out = cmd.arg(path).output().expect("gcc must be installed");
    if !out.status.success() {
        return Outcome::PreprocessFailed(String::from_utf8_lossy(&out.stderr).into_owned());
    }
    let mut src = String::from_utf8_lossy(&out.stdout).into_owned();
    if src.trim().is_empty() {
        return Outcome::PreprocessFailed("empty output".into());
    }
    // lang-c rejects `$` in identifiers (common in SV-COMP's pthread-wmm); rename so the printer
    // is still exercised on those files, and count them.
    let mut renamed_dollar = false;
    if src.contains('$') {
        let renamed = rename_dollars(&src);
        renamed_dollar = renamed != src;
        src = renamed;
    }
    let start = Instant::now();
    let parsed = match parse_preprocessed(&Config::with_gcc(), src.clone()) {
        Ok(p) => p,
        Err(e) => return Outcome::ParseFailed(error_word(&src, &e)),
    };
    let p1 = print_unit(&parsed.unit);
    let took = start.elapsed();
    if p1.origins.len() != p1.text.lines().count() {
        return Outcome::Bad("origins.len() != number of lines".into());
    }
    if let Err(e) = gcc_accepts_text(&p1.text) {
        let first: String = e.lines().take(3).collect::<Vec<_>>().join("\n");
        return Outcome::Bad(format!("gcc rejects the printed program:\n{}", first));
    }
    let p2 = match parse_preprocessed(&Config::with_gcc(), p1.text.clone()) {
        Ok(p) => print_unit(&p.unit),
        Err(e) => return Outcome::Bad(format!("printed program does not reparse: {:?}", e)),
    };
    if p1.text != p2.text {
        let line = p1
            .text
            .lines()
            .zip(p2.text.lines())
            .position(|(a, b)| a != b)
            .unwrap_or(0);
        return Outcome::Bad(format!(
            "not a fixpoint, first difference at line {}",
            line + 1
        ));
    }
    Outcome::Ok(took, renamed_dollar)
}

#[test]
fn svcomp_corpus_prints_valid_fixpoint_c() {
    let Some(root) = common::svcomp_root() else {
        return;
    };
    let dir = root.join("c");
    let mut files = Vec::new();
    collect(&dir, &mut files);
    files.sort();
    let only = std::env::var("LADR_CORPUS_FILTER").ok();
    if let Some(f) = &only {
        files.retain(|p| p.to_string_lossy().contains(f.as_str()));
    }

    let next = AtomicUsize::new(0);
    let results: Mutex<Vec<(PathBuf, Outcome)>> = Mutex::new(Vec::new());
    let threads = std::thread::available_parallelism()
        .map(|n| n.get())
        .unwrap_or(4);
    let wall = Instant::now();
    std::thread::scope(|s| {
        for _ in 0..threads {
            s.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::SeqCst);
                let Some(path) = files.get(i) else { break };
                let outcome = check_file(path);
                results.lock().unwrap().push((path.clone(), outcome));
            });
        }
    });
    let wall = wall.elapsed();

    let results = results.into_inner().unwrap();
    let mut ok = 0;
    let mut renamed = 0;
    let mut parse_time = Duration::ZERO;
    let mut parse_failed: BTreeMap<String, Vec<String>> = BTreeMap::new();
    let mut preprocess_failed = Vec::new();
    let mut bad = Vec::new();
    for (path, outcome) in &results {
        let name = path
            .strip_prefix(&dir)
            .unwrap_or(path)
            .display()
            .to_string();
        match outcome {
            Outcome::Ok(t, dollar) => {
                ok += 1;
                renamed += usize::from(*dollar);
                parse_time += *t;
            }
            Outcome::PreprocessFailed(_) => preprocess_failed.push(name),
            Outcome::ParseFailed(word) => parse_failed.entry(word.clone()).or_default().push(name),
            Outcome::Bad(msg) => {
                // A printed program gcc rejects only counts against the printer when gcc accepts
                // the input.
                let input_ok = msg.starts_with("gcc rejects") && gcc_check(path).is_err();
                if input_ok {
                    preprocess_failed.push(format!("{} (gcc rejects the input too)", name));
                } else {
                    bad.push(format!("{}: {}", name, msg));
                }
            }
        }
    }
    let n_parse_failed: usize = parse_failed.values().map(|v| v.len()).sum();
    println!(
        "corpus: {} files, {} printed ok ({} after renaming `$` in identifiers), {} not parsed by lang-c, {} not preprocessed, {} bad",
        files.len(),
        ok,
        renamed,
        n_parse_failed,
        preprocess_failed.len(),
        bad.len()
    );
    println!(
        "parse+print time of the parsed files (sum over threads): {:.2?}; wall time {:.2?} on {} threads",
        parse_time, wall, threads
    );
    for (word, names) in &parse_failed {
        println!(
            "  lang-c fails at `{}`: {} file(s), e.g. {}",
            word,
            names.len(),
            names[0]
        );
    }
    for name in &preprocess_failed {
        println!("  preprocess failed: {}", name);
    }
    for b in &bad {
        println!("  BAD {}", b);
    }
    assert!(bad.is_empty(), "{} printed programs are wrong", bad.len());
}
