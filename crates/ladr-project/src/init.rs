//! `ladr init`: a starter `ladr.toml` from the project's compile database — found in
//! `build/`, `out/` or `cmake-build-*/` (or named), its translation units grouped into
//! targets (CMake's `CMakeFiles/<target>.dir/` in an entry's `output`, else the source's
//! directory), one library-mode harness (`entries = "auto"`) per target with no `main`.

use ladr_c::diag::{Error, ErrorKind, Result};
use std::path::{Path, PathBuf};

/// One target of the compile database.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Target {
    pub name: String,
    /// Its sources, relative to the project's root, in the database's order.
    pub files: Vec<PathBuf>,
    /// One of its sources defines `main` (an executable: no library-mode harness).
    pub executable: bool,
}

/// The database: `given` (a file or a directory holding `compile_commands.json`), else
/// the first of `build/`, `out/`, `cmake-build-*/` (sorted) under `root` that holds one.
pub fn find_database(root: &Path, given: Option<&Path>) -> Option<PathBuf> {
    const NAME: &str = "compile_commands.json";
    if let Some(g) = given {
        return Some(if g.is_dir() {
            g.join(NAME)
        } else {
            g.to_path_buf()
        });
    }
    let mut dirs = vec![root.join("build"), root.join("out"), root.to_path_buf()];
    let mut cmake: Vec<PathBuf> = std::fs::read_dir(root)
        .into_iter()
        .flatten()
        .flatten()
        .map(|e| e.path())
        .filter(|p| {
            p.is_dir()
                && p.file_name()
                    .and_then(|n| n.to_str())
                    .is_some_and(|n| n.starts_with("cmake-build-"))
        })
        .collect();
    cmake.sort();
    dirs.splice(2..2, cmake);
    dirs.into_iter().map(|d| d.join(NAME)).find(|f| f.is_file())
}

/// The target of an entry: `CMakeFiles/<target>.dir/` in its output (the `output` field,
/// else the `-o` of its `arguments` or `command`: CMake before 3.20 writes no `output`),
/// or an output that is no object file (a program compiled and linked in one command),
/// else its source's directory relative to the root (`.` for the root).
fn target_of(entry: &serde_json::Value, rel: &Path) -> String {
    let output = entry["output"]
        .as_str()
        .map(str::to_string)
        .or_else(|| output_option(entry));
    if let Some(o) = output {
        if let Some(i) = o.find("CMakeFiles/") {
            let rest = &o[i + "CMakeFiles/".len()..];
            if let Some(end) = rest.find(".dir/") {
                return rest[..end].to_string();
            }
        }
        // `cc -o prog a.c b.c` (as `bear` records it, one entry per source): the program.
        let path = Path::new(&o);
        if !matches!(
            path.extension().and_then(|x| x.to_str()),
            Some("o" | "obj" | "lo")
        ) {
            if let Some(name) = path.file_name() {
                return name.to_string_lossy().into_owned();
            }
        }
    }
    match rel.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.display().to_string(),
        _ => ".".into(),
    }
}

/// The word after `-o` in an entry's `arguments` (or its `command` split at white space:
/// only looked at, never run).
fn output_option(entry: &serde_json::Value) -> Option<String> {
    let words: Vec<String> = match entry["arguments"].as_array() {
        Some(a) => a
            .iter()
            .filter_map(|w| w.as_str().map(str::to_string))
            .collect(),
        None => entry["command"]
            .as_str()?
            .split_whitespace()
            .map(str::to_string)
            .collect(),
    };
    let at = words.iter().position(|w| w == "-o")?;
    words.get(at + 1).cloned()
}

/// Whether C text defines `main` (a line-level look, comments not stripped: enough to
/// tell an executable's unit from a library's): a line that starts with words (its type,
/// or a calling-convention macro: `int CJSON_CDECL main(void)`) and then `main(`, and
/// does not end with `;` (a declaration or a call).
fn defines_main(text: &str) -> bool {
    text.lines().any(|l| {
        let l = l.trim();
        let Some(at) = find_word(l, "main") else {
            return false;
        };
        let before = &l[..at];
        l[at + 4..].trim_start().starts_with('(')
            && !l.ends_with(';')
            && before
                .split_whitespace()
                .all(|w| w != "return" && w.chars().all(|c| c.is_ascii_alphanumeric() || c == '_'))
    })
}

/// The byte offset of `word` in `line` as a whole identifier.
fn find_word(line: &str, word: &str) -> Option<usize> {
    let ident = |c: char| c.is_ascii_alphanumeric() || c == '_';
    line.match_indices(word).map(|(i, _)| i).find(|&i| {
        !line[..i].chars().next_back().is_some_and(ident)
            && !line[i + word.len()..].chars().next().is_some_and(ident)
    })
}

/// The C translation units of the database at `db`, grouped into targets; only sources
/// inside `root` (headers, generated files elsewhere, C++ left out).
pub fn targets(db: &Path, root: &Path) -> Result<Vec<Target>> {
    let usage = |m: String| Error::new(ErrorKind::Usage, m);
    let bytes =
        std::fs::read(db).map_err(|e| usage(format!("cannot read `{}`: {e}", db.display())))?;
    let entries: Vec<serde_json::Value> = serde_json::from_slice(&bytes)
        .map_err(|e| usage(format!("`{}` is not a compile database: {e}", db.display())))?;
    let cwd = std::env::current_dir().unwrap_or_default();
    let abs = |p: &Path, base: &Path| ladr_report::sarif::absolute(p, base);
    let root = std::fs::canonicalize(root).unwrap_or_else(|_| abs(root, &cwd));
    let db_dir = abs(db.parent().unwrap_or(Path::new(".")), &cwd);
    let mut out: Vec<Target> = vec![];
    for e in &entries {
        let (Some(dir), Some(file)) = (e["directory"].as_str(), e["file"].as_str()) else {
            continue;
        };
        let dir = abs(Path::new(dir), &db_dir);
        let source = abs(Path::new(file), &dir);
        let source = std::fs::canonicalize(&source).unwrap_or(source);
        let Ok(rel) = source.strip_prefix(&root) else {
            continue;
        };
        if source.extension().and_then(|x| x.to_str()) != Some("c") {
            continue;
        }
        let name = target_of(e, rel);
        let main = std::fs::read_to_string(&source).is_ok_and(|t| defines_main(&t));
        let i = match out.iter().position(|t| t.name == name) {
            Some(i) => i,
            None => {
                out.push(Target {
                    name,
                    files: vec![],
                    executable: false,
                });
                out.len() - 1
            }
        };
        if !out[i].files.iter().any(|f| f == rel) {
            out[i].files.push(rel.to_path_buf());
        }
        out[i].executable |= main;
    }
    Ok(without_copies(out))
}

/// The targets less those with the same sources as an earlier one (CMake's shared and
/// static library of the same files, `lfqueue` and `lfqueue.static`): one harness
/// checks them.
fn without_copies(targets: Vec<Target>) -> Vec<Target> {
    let mut out: Vec<Target> = vec![];
    for t in targets {
        if !out.iter().any(|o| o.files == t.files) {
            out.push(t);
        }
    }
    out
}

/// A TOML string.
fn quoted(s: &str) -> String {
    toml::Value::String(s.to_string()).to_string()
}

/// A harness name from a target's: letters, digits, `-`, `_` and `.` kept.
fn harness_name(target: &str) -> String {
    let n: String = target
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || "-_.".contains(c) {
                c
            } else {
                '_'
            }
        })
        .collect();
    if n.is_empty() {
        "lib".into()
    } else {
        n
    }
}

/// The starter config: the database (relative to `root` when inside it) and one
/// library-mode harness per target without `main`; executables listed in comments.
pub fn starter(db: &Path, root: &Path, targets: &[Target]) -> String {
    let db_text = db.strip_prefix(root).unwrap_or(db).display().to_string();
    let mut s = String::from(
        "# ladr.toml: the data-race gate of this repository (`ladr check`), written by\n\
         # `ladr init` from the compile database. Paths are relative to this file.\n\
         # Each [[harness]] below is in library mode (docs/library-mode.md): ladr generates\n\
         # a `main` that calls the target's exported functions, two at a time, each on its\n\
         # own thread (`entries = \"auto\"`; name them with `entries = [\"f\", \"g\"]`).\n\n\
         rounds = 2\nunwind = 2\ntimeout = 300\n",
    );
    s.push_str(&format!("compile-commands = {}\n", quoted(&db_text)));
    let mut used: Vec<String> = vec![];
    for t in targets {
        let files: Vec<String> = t
            .files
            .iter()
            .map(|f| quoted(&glob::Pattern::escape(&f.display().to_string())))
            .collect();
        if t.executable {
            s.push_str(&format!(
                "\n# `{}` defines `main`: check it as a program with\n# [[harness]]\n# name = {}\n# files = [{}]\n",
                t.name.replace('\n', " "),
                quoted(&harness_name(&t.name)),
                files.join(", ")
            ));
            continue;
        }
        let mut name = harness_name(&t.name);
        while used.contains(&name) {
            name.push('_');
        }
        used.push(name.clone());
        s.push_str(&format!(
            "\n[[harness]]\nname = {}\nfiles = [{}]\nentries = \"auto\"\nmax-pairs = 20\n# init = \"setup\"        # a function to call first, alone\n",
            quoted(&name),
            files.join(", ")
        ));
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn target_from_output_field_or_o_option() {
        let rel = Path::new("src/a.c");
        let field = json!({"output": "CMakeFiles/lib.dir/src/a.c.o"});
        assert_eq!(target_of(&field, rel), "lib");
        let command = json!({"command": "cc -DX -o CMakeFiles/core.dir/src/a.c.o -c ../src/a.c"});
        assert_eq!(target_of(&command, rel), "core");
        let arguments = json!({"arguments": ["cc", "-o", "CMakeFiles/x.dir/a.c.o", "-c", "a.c"]});
        assert_eq!(target_of(&arguments, rel), "x");
        // Not CMake's: the source's directory, or the program linked in the same command.
        let bear = json!({"arguments": ["cc", "-o", "a.o", "-c", "a.c"]});
        assert_eq!(target_of(&bear, rel), "src");
        let program = json!({"output": "/p/list/bench-lock", "file": "lock.c"});
        assert_eq!(target_of(&program, rel), "bench-lock");
        assert_eq!(target_of(&json!({}), Path::new("a.c")), ".");
    }

    #[test]
    fn a_target_of_the_same_files_as_another_is_left_out() {
        let t = |name: &str, files: &[&str]| Target {
            name: name.into(),
            files: files.iter().map(PathBuf::from).collect(),
            executable: false,
        };
        let all = vec![
            t("q", &["q.c"]),
            t("q.static", &["q.c"]),
            t("r", &["q.c", "r.c"]),
        ];
        let kept: Vec<String> = without_copies(all).into_iter().map(|t| t.name).collect();
        assert_eq!(kept, ["q", "r"]);
    }

    #[test]
    fn main_behind_a_macro_and_not_a_call() {
        assert!(defines_main("int main(void)\n{}"));
        assert!(defines_main("int CJSON_CDECL main(void)\n{"));
        assert!(defines_main("int\nmain (int argc, char **argv) {"));
        assert!(!defines_main("int main(void);"));
        assert!(!defines_main("  return main(1);"));
        assert!(!defines_main("x = main(1)"));
        assert!(!defines_main("int domain(void) {"));
        assert!(!defines_main("int main_loop(void) {"));
    }
}
