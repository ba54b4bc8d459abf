//! Tidy checks of the source tree (issue 29): every source file says what it is, fixed
//! names of the sequential program live in the ABI module, crates depend only on the
//! layers below them, and `ladr-check` exports only its entry point and its types.

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

/// Most lines a source file may have (counted as `/work/tools/fnlen.py` counts them: the
/// pieces between newlines, so a final newline counts as one more line).
const MAX_FILE_LINES: usize = 1000;
/// Most lines a function may have unless a comment right above it says why it is "long
/// because".
const MAX_FN_LINES: usize = 150;

/// The name of the function declared on `line` (and the line's indent), as fnlen.py's
/// pattern reads it: `[pub[(…)]] [const] [async] [unsafe] [extern "C"] fn NAME`.
fn function_declared(line: &str) -> Option<(&str, &str)> {
    let rest = line.trim_start();
    let indent = &line[..line.len() - rest.len()];
    /// `text` after `word` and at least one whitespace character, if it starts so.
    fn after<'a>(text: &'a str, word: &str) -> Option<&'a str> {
        let tail = text.strip_prefix(word)?;
        let trimmed = tail.trim_start();
        (trimmed.len() < tail.len()).then_some(trimmed)
    }
    let mut rest = rest;
    if let Some(tail) = rest.strip_prefix("pub") {
        let tail = match tail.strip_prefix('(') {
            Some(inside) => inside.find(')').map(|i| &inside[i + 1..]),
            None => Some(tail),
        };
        if let Some(tail) = tail {
            let trimmed = tail.trim_start();
            if trimmed.len() < tail.len() {
                rest = trimmed;
            }
        }
    }
    for word in ["const", "async", "unsafe", "extern \"C\""] {
        if let Some(tail) = after(rest, word) {
            rest = tail;
        }
    }
    let rest = after(rest, "fn")?;
    let end = rest
        .find(|c: char| !(c.is_alphanumeric() || c == '_'))
        .unwrap_or(rest.len());
    (end > 0).then(|| (indent, &rest[..end]))
}

/// The files over [`MAX_FILE_LINES`] and the functions over [`MAX_FN_LINES`] in `text`
/// (shown as `shown`) not excused by a comment or attribute line right above them that
/// says "long because"; a port of `/work/tools/fnlen.py`.
fn too_long(shown: &str, text: &str) -> Vec<String> {
    let lines: Vec<&str> = text.split('\n').collect();
    let mut found = vec![];
    if lines.len() > MAX_FILE_LINES {
        found.push(format!("{shown}: {} lines", lines.len()));
    }
    for (i, line) in lines.iter().enumerate() {
        let Some((indent, name)) = function_declared(line) else {
            continue;
        };
        if line.trim_end().ends_with(';') {
            continue;
        }
        // The end: the first later line that is `}` at the function's indent (not `} else`).
        let close = format!("{indent}}}");
        let end = (i + 1..lines.len())
            .find(|&j| {
                let l = lines[j];
                (l.starts_with(&close) && !l.starts_with(&format!("{close} "))) || l == close
            })
            .unwrap_or(lines.len());
        let length = end - i + 1;
        if length <= MAX_FN_LINES {
            continue;
        }
        let excused = lines[..i]
            .iter()
            .rev()
            .take_while(|l| {
                let l = l.trim();
                l.starts_with("//") || l.starts_with("#[")
            })
            .any(|l| l.to_lowercase().contains("long because"));
        if !excused {
            found.push(format!("{shown}:{} fn {name}: {length} lines", i + 1));
        }
    }
    found
}

/// No source or test file over 1000 lines, and no function over 150 lines unless a comment
/// right above it says why it is "long because" (issue 29).
#[test]
fn no_file_over_1000_lines_and_no_long_function() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = sources();
    rust_files(&root.join("tests"), &mut files);
    let mut found = vec![];
    for p in files {
        let shown = p.strip_prefix(root).unwrap_or(&p).display().to_string();
        let text = String::from_utf8_lossy(&std::fs::read(&p).unwrap()).into_owned();
        found.extend(too_long(&shown, &text));
    }
    assert!(
        found.is_empty(),
        "over {MAX_FILE_LINES} lines per file or {MAX_FN_LINES} per function: {found:#?}"
    );
}

/// [`too_long`] reads declarations and ends of functions as fnlen.py does, and a "long
/// because" comment above a function excuses it.
#[test]
fn long_functions_are_found_as_fnlen_finds_them() {
    let body = "    let x = 1;\n".repeat(MAX_FN_LINES);
    let long =
        format!("pub(crate) async fn f() {{\n    if x {{\n    }} else {{\n    }}\n{body}}}\n");
    assert_eq!(too_long("a.rs", &long), ["a.rs:1 fn f: 155 lines"]);
    let method = format!("impl A {{\n    unsafe fn g(&self) {{\n{body}    }}\n}}\n");
    assert_eq!(too_long("b.rs", &method), ["b.rs:2 fn g: 152 lines"]);
    let excused = format!("/// Long because it is a table.\n#[test]\n{long}");
    assert!(too_long("c.rs", &excused).is_empty());
    let declared = "trait T {\n    fn f(&self);\n}\n".to_string() + &"\n".repeat(MAX_FILE_LINES);
    assert_eq!(too_long("d.rs", &declared), ["d.rs: 1004 lines"]);
}

/// The items `ladr-check` exports at its root (`pub` lines of its `lib.rs` outside any
/// block, `pub use` lists spelled out), in the order written.
fn check_crate_public_items() -> Vec<String> {
    let lib = Path::new(env!("CARGO_MANIFEST_DIR")).join("crates/ladr-check/src/lib.rs");
    let text = std::fs::read_to_string(lib).unwrap();
    let mut items = vec![];
    let mut lines = text.lines();
    while let Some(line) = lines.next() {
        let Some(rest) = line.strip_prefix("pub ") else {
            continue;
        };
        if let Some(used) = rest.strip_prefix("use ") {
            let mut whole = used.to_string();
            while !whole.ends_with(';') {
                whole.push_str(lines.next().unwrap_or(";").trim());
            }
            let names = whole.rsplit("::").next().unwrap_or("");
            items.extend(
                names
                    .trim_matches(|c| "{};".contains(c))
                    .split(',')
                    .map(str::trim)
                    .filter(|n| !n.is_empty())
                    .map(|n| format!("use {n}")),
            );
        } else {
            let words: Vec<&str> = rest.split_whitespace().take(2).collect();
            let name = words.get(1).map_or("", |n| {
                n.split(|c: char| !c.is_alphanumeric() && c != '_')
                    .next()
                    .unwrap_or("")
            });
            items.push(format!("{} {name}", words[0]));
        }
    }
    items
}

/// `ladr-check`'s public API is its one entry point, `check`, with the types of its
/// request and answer, and the documented second entry `recorded` (CBMC runs made
/// elsewhere): no utility, constant or module of the check's inside. A new public item is
/// a decision: add it here.
#[test]
fn ladr_check_exports_one_entry_point_and_its_types() {
    let expected = [
        "mod recorded",
        "use AccessInfo",
        "use Answer",
        "use Bounds",
        "use Context",
        "use GiveUp",
        "use LockHeld",
        "use ObjectAnswer",
        "use OmpConstruct",
        "use Position",
        "use ProofAnswer",
        "use Race",
        "use Search",
        "use Stats",
        "use StepInfo",
        "use Thread",
        "use Value",
        "use Verdict",
        "use Word",
        "use DEEPEN_STEPS",
        "use VACUITY_GRACE",
        "use Deepening",
        "use Plan",
        "use StepState",
        "struct Request",
        "enum Prove",
        "enum Phase",
        "trait Progress",
        "fn check",
    ];
    assert_eq!(check_crate_public_items(), expected);
}
