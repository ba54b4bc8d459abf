//! Tidy checks of the source tree (issue 29): every source file says what it is, fixed
//! names of the sequential program live in the ABI module, and crates depend only on the
//! layers below them.

use std::path::{Path, PathBuf};

/// Every `.rs` file under `dir`, recursively.
fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let p = e.path();
        if p.is_dir() {
            rust_files(&p, out);
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
}

/// The library and binary sources of the workspace (not tests, benches or examples).
fn sources() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut out = vec![];
    rust_files(&root.join("src"), &mut out);
    for c in std::fs::read_dir(root.join("crates")).unwrap().flatten() {
        rust_files(&c.path().join("src"), &mut out);
    }
    out.sort();
    assert!(out.len() > 40, "found only {} source files", out.len());
    out
}

#[test]
fn every_source_file_starts_with_its_header_comment() {
    let missing: Vec<String> = sources()
        .into_iter()
        .filter(|p| !std::fs::read_to_string(p).unwrap().starts_with("//!"))
        .map(|p| p.display().to_string())
        .collect();
    assert!(missing.is_empty(), "no `//!` header: {missing:?}");
}

/// A fixed name of the sequential program (`"__ladr…"`) is written only in `ladr_ir::abi`
/// (and the reserved prefix itself in `ladr_c::syntax::names`, below the IR); test modules
/// (from `#[cfg(test)]` on) may spell the names they expect.
#[test]
fn fixed_names_live_in_the_abi_module() {
    let allowed = [
        "crates/ladr-ir/src/abi.rs",
        "crates/ladr-c/src/syntax/names.rs",
    ];
    let mut found = vec![];
    for p in sources() {
        let shown = p.display().to_string();
        if allowed.iter().any(|a| shown.ends_with(a)) {
            continue;
        }
        let text = std::fs::read_to_string(&p).unwrap();
        for (n, line) in text.lines().enumerate() {
            if line.trim_start().starts_with("#[cfg(test)]") {
                break;
            }
            if line.contains("\"__ladr") && !line.trim_start().starts_with("//") {
                found.push(format!("{shown}:{}: {}", n + 1, line.trim()));
            }
        }
    }
    assert!(
        found.is_empty(),
        "fixed names outside the ABI module: {found:#?}"
    );
}

/// The layer of each crate: a crate may depend only on crates of a lower layer.
const LAYERS: &[(&str, u32)] = &[
    ("ladr-c", 0),
    ("ladr-ir", 1),
    ("ladr-cbmc", 1),
    ("ladr-svcomp", 1),
    ("ladr-seq", 2),
    ("ladr-eval", 2),
    ("ladr-check", 3),
    ("ladr-report", 4),
    ("ladr-project", 5),
];

fn layer(name: &str) -> u32 {
    LAYERS
        .iter()
        .find(|(n, _)| *n == name)
        .unwrap_or_else(|| panic!("crate {name} has no layer in tests/it/tidy.rs"))
        .1
}

#[test]
fn crates_depend_only_downward() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("crates");
    let mut crates = 0;
    for c in std::fs::read_dir(&root).unwrap().flatten() {
        let name = c.file_name().to_string_lossy().into_owned();
        let manifest = std::fs::read_to_string(c.path().join("Cargo.toml")).unwrap();
        let mut section = String::new();
        for line in manifest.lines() {
            let line = line.trim();
            if line.starts_with('[') {
                section = line.to_string();
                continue;
            }
            if section != "[dependencies]" {
                continue;
            }
            let dep = line.split(['.', ' ', '=']).next().unwrap_or("");
            if dep.starts_with("ladr-") {
                assert!(
                    layer(dep) < layer(&name),
                    "{name} (layer {}) depends on {dep} (layer {})",
                    layer(&name),
                    layer(dep)
                );
            }
        }
        crates += 1;
    }
    assert_eq!(crates, LAYERS.len(), "every crate has a layer");
}
