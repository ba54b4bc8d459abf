//! Names are not facts: every program of `tests/e2e` checked again with its own variables
//! (and struct members) renamed to the names of the parameters and locals of ladr's model
//! (`model/*.c`: `s`, `m`, `count`, `key`, …) gives the same verdict and the same racing
//! lines. Before facts were keyed by declaration, `int s[2]` beside the model's `void *s`
//! was an array of unknown depth, and two threads writing `s[0]` and `s[1]` raced.

use super::checked::{check_races, e2e};
use ladr_c::frontend;
use ladr_c::syntax::build::{declarator_name, is_function_declarator, storage_of};
use ladr_c::syntax::walk::visit::{self, Visitor};
use ladr_c::syntax::walk::Walk;
use ladr_ir::program::Options;
use lang_c::ast::*;
use lang_c::span::Node;
use std::collections::{BTreeMap, BTreeSet, HashSet};
use std::convert::Infallible;
use std::path::Path;

/// The names of the parameters and block-scope objects of the model's functions.
fn model_names() -> BTreeSet<String> {
    struct Names(BTreeSet<String>);
    impl Visitor for Names {
        type Error = Infallible;
        fn declarator(&mut self, d: &Node<Declarator>) -> Result<Walk, Infallible> {
            if let Some(n) = declarator_name(&d.node) {
                if !n.starts_with("__") && !is_function_declarator(&d.node) {
                    self.0.insert(n.to_string());
                }
            }
            Ok(Walk::Descend)
        }
    }
    let mut names = Names(BTreeSet::new());
    for unit in [
        ladr_seq::passes::threads::model_unit(),
        ladr_seq::passes::threads::keys_model_unit(),
        ladr_seq::passes::threads::string_model_unit(),
    ] {
        let Ok(()) = visit::unit(&mut names, &unit);
    }
    names.0
}

/// The objects (and struct members) a program declares in its own file, not in a header:
/// declarator names that are not functions or typedefs, and not declared in any header.
fn own_objects(path: &Path) -> Option<BTreeSet<String>> {
    struct Decls<'a> {
        parsed: &'a frontend::Parsed,
        file: String,
        own: BTreeSet<String>,
        elsewhere: HashSet<String>,
    }
    impl Visitor for Decls<'_> {
        type Error = Infallible;
        fn declaration(&mut self, d: &Node<Declaration>) -> Result<Walk, Infallible> {
            if storage_of(&d.node.specifiers).contains(&StorageClassSpecifier::Typedef) {
                for id in &d.node.declarators {
                    if let Some(n) = declarator_name(&id.node.declarator.node) {
                        self.elsewhere.insert(n.to_string());
                    }
                }
            }
            Ok(Walk::Descend)
        }
        fn declarator(&mut self, d: &Node<Declarator>) -> Result<Walk, Infallible> {
            if let Some(n) = declarator_name(&d.node) {
                let here = self.parsed.map.lookup(d.span.start).file == self.file;
                if here && !is_function_declarator(&d.node) {
                    self.own.insert(n.to_string());
                } else {
                    self.elsewhere.insert(n.to_string());
                }
            }
            Ok(Walk::Descend)
        }
    }
    let parsed = frontend::load(path, &frontend::Options::default()).ok()?;
    let mut d = Decls {
        parsed: &parsed,
        file: path.display().to_string(),
        own: BTreeSet::new(),
        elsewhere: HashSet::new(),
    };
    let Ok(()) = visit::unit(&mut d, &parsed.unit);
    let elsewhere = d.elsewhere;
    Some(
        d.own
            .into_iter()
            .filter(|n| !elsewhere.contains(n))
            .collect(),
    )
}

/// `text` with every identifier token in `map` replaced (outside comments, string and
/// character literals and preprocessor `#include` lines).
fn rename_tokens(text: &str, map: &BTreeMap<String, String>) -> String {
    let b = text.as_bytes();
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        let rest = &text[i..];
        if rest.starts_with("//") || rest.starts_with("#include") {
            let end = rest.find('\n').map_or(b.len(), |k| i + k);
            out.push_str(&text[i..end]);
            i = end;
        } else if rest.starts_with("/*") {
            let end = rest.find("*/").map_or(b.len(), |k| i + k + 2);
            out.push_str(&text[i..end]);
            i = end;
        } else if c == b'"' || c == b'\'' {
            let mut j = i + 1;
            while j < b.len() && b[j] != c {
                j += if b[j] == b'\\' { 2 } else { 1 };
            }
            let end = (j + 1).min(b.len());
            out.push_str(&text[i..end]);
            i = end;
        } else if c.is_ascii_alphabetic() || c == b'_' {
            let mut j = i;
            while j < b.len() && (b[j].is_ascii_alphanumeric() || b[j] == b'_') {
                j += 1;
            }
            let word = &text[i..j];
            // A tag (`struct tm tm;`) is no object: only the object is renamed.
            let tag = ["struct", "union", "enum"]
                .iter()
                .any(|k| out.trim_end().ends_with(k));
            match map.get(word) {
                Some(new) if !tag => out.push_str(new),
                _ => out.push_str(word),
            }
            i = j;
        } else if c.is_ascii_digit() {
            // A number (`1e5`, `0x1fu`) is one token: its letters are no identifier.
            let mut j = i;
            while j < b.len() && (b[j].is_ascii_alphanumeric() || b[j] == b'_' || b[j] == b'.') {
                j += 1;
            }
            out.push_str(&text[i..j]);
            i = j;
        } else {
            let ch = rest.chars().next().expect("not at the end");
            out.push(ch);
            i += ch.len_utf8();
        }
    }
    out
}

/// The instrumented accesses of the sequential program (slot, line, write, atomic,
/// the expression with `back` applied to its names): the same for a program and its
/// renamed copy when names are not facts. Without CBMC: fast enough for every program.
fn sites(path: &Path, back: &BTreeMap<String, String>) -> Result<Vec<String>, String> {
    let parsed =
        frontend::load(path, &frontend::Options::default()).map_err(|e| format!("{:?}", e.kind))?;
    let program = ladr_seq::pipeline::translate(
        parsed.unit.clone(),
        &Options::default(),
        ladr_seq::pipeline::Stage::Seq,
        |_, _| {},
    )
    .map_err(|e| format!("{:?}", e.kind))?;
    Ok(program
        .sites
        .iter()
        .skip(1)
        .map(|s| {
            let at = parsed.map.lookup(s.span.start);
            format!(
                "slot {} line {} {} {}{}",
                s.slot,
                at.line,
                rename_tokens(&s.expr, back),
                if s.write { "write" } else { "read" },
                if s.atomic { " atomic" } else { "" }
            )
        })
        .collect())
}

/// The verdict and the sorted pair of racing lines of one check (with CBMC), or "refused".
fn answer(path: &Path) -> Result<(String, Vec<u64>), String> {
    let path = path.to_path_buf();
    std::panic::catch_unwind(|| check_races(&path, &Options::default(), None, Some(1)))
        .map(|c| {
            let mut lines: Vec<u64> = c.json_value["races"]
                .get(0)
                .and_then(|r| r["accesses"].as_array().cloned())
                .unwrap_or_default()
                .iter()
                .map(|a| a["line"].as_u64().unwrap())
                .collect();
            lines.sort();
            (c.outcome.verdict.to_string(), lines)
        })
        .map_err(|_| "refused".to_string())
}

/// Every program: the same instrumented accesses after renaming. The programs of arrays
/// and structs, where a name once decided an object's shape: the same verdict and lines
/// with CBMC.
#[test]
fn variables_named_like_the_models_give_the_same_answers() {
    let model: Vec<String> = model_names().into_iter().collect();
    assert!(
        ["s", "m", "count", "key", "once"]
            .iter()
            .all(|n| model.iter().any(|m| m == n)),
        "the model's names: {model:?}"
    );
    let dir = tempfile::tempdir().expect("a temporary directory");
    let mut files: Vec<String> = std::fs::read_dir("tests/e2e")
        .expect("tests/e2e")
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|f| f.ends_with(".c"))
        // The OpenMP lowering names its objects after the user's (a reduction's private
        // copy of `sum` is `omp_redsum`), so their sites' names follow a renaming: the
        // OpenMP programs are checked by `openmp` instead.
        .filter(|f| !f.starts_with("omp_"))
        .collect();
    files.sort();
    let mut renamed_count = 0;
    let mut differences = vec![];
    let mut with_cbmc = vec![];
    for file in &files {
        let path = e2e(file);
        let Some(own) = own_objects(&path) else {
            continue; // refused by the front end: nothing to rename
        };
        let text = std::fs::read_to_string(&path).unwrap();
        let used: HashSet<&str> = text
            .split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .collect();
        let free = model.iter().filter(|m| !used.contains(m.as_str()));
        let map: BTreeMap<String, String> = own.into_iter().zip(free.cloned()).collect();
        if map.is_empty() {
            continue;
        }
        let back: BTreeMap<String, String> =
            map.iter().map(|(k, v)| (v.clone(), k.clone())).collect();
        let copy = dir.path().join(file);
        std::fs::write(&copy, rename_tokens(&text, &map)).unwrap();
        renamed_count += 1;
        let (before, after) = (sites(&path, &BTreeMap::new()), sites(&copy, &back));
        if before != after {
            differences.push(format!(
                "{file} (renamed {map:?}): accesses {before:?} before, {after:?} renamed"
            ));
        }
        if ["array", "struct", "pointer_array", "sum_"]
            .iter()
            .any(|p| file.starts_with(p))
        {
            with_cbmc.push((file.clone(), path, copy, map));
        }
    }
    assert!(with_cbmc.len() >= 8, "too few programs checked with CBMC");
    for (file, path, copy, map) in with_cbmc {
        let (before, after) = (answer(&path), answer(&copy));
        if before != after {
            differences.push(format!(
                "{file} (renamed {map:?}): {before:?} before, {after:?} renamed"
            ));
        }
    }
    assert!(
        differences.is_empty(),
        "different answers after renaming:\n{}",
        differences.join("\n")
    );
    assert!(renamed_count > 100, "too few programs renamed");
}
