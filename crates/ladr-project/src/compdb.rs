//! The build's compile database (`compile_commands.json`, from CMake's
//! `-DCMAKE_EXPORT_COMPILE_COMMANDS=ON`, Bear, meson, …), read with the
//! `json_compilation_db` crate: for each listed source, the preprocessor options its build
//! uses.
//!
//! Of an entry's arguments only those that change what the preprocessor produces are kept:
//! `-I`, `-isystem`, `-iquote`, `-idirafter`, `-include`, `-imacros` (paths made absolute
//! against the entry's `directory`), `-D`, `-U`, `-std=`, `-m32`/`-m64`, `-pthread`.
//! Optimisation and fortification flags (`-O2` defines `__OPTIMIZE__`, which selects
//! glibc's inline variants) and everything about code generation are left out.

use ladr_c::diag::{Error, ErrorKind, Result};
use ladr_report::sarif::absolute;
use std::collections::HashMap;
use std::path::{Path, PathBuf};

/// The options of one source file, by absolute normalised path.
#[derive(Clone, Debug, Default)]
pub struct Database {
    /// Where it was read from (for messages).
    pub path: PathBuf,
    entries: HashMap<PathBuf, Vec<String>>,
    /// Sources in the order the database lists them (for globs over the database).
    pub files: Vec<PathBuf>,
}

/// Options that take a path, joined (`-Idir`) or as the next argument (`-I dir`).
const PATH_OPTIONS: &[&str] = &[
    "-I",
    "-isystem",
    "-iquote",
    "-idirafter",
    "-include",
    "-imacros",
];
/// Options that take a value that is not a path.
const VALUE_OPTIONS: &[&str] = &["-D", "-U"];
/// Options kept as they are.
const FLAGS: &[&str] = &["-m32", "-m64", "-pthread", "-ansi"];

impl Database {
    /// Reads `path`: a `compile_commands.json` file or a build directory holding one.
    pub fn load(path: &Path) -> Result<Database> {
        let file = if path.is_dir() {
            path.join(json_compilation_db::DEFAULT_FILE_NAME)
        } else {
            path.to_path_buf()
        };
        let usage = |m: String| Error::new(ErrorKind::Usage, m);
        let bytes = std::fs::read(&file).map_err(|e| {
            usage(format!(
                "cannot read the compile database `{}`: {e}",
                file.display()
            ))
        })?;
        // Read whole with serde_json, whose errors name the line and column (the streaming
        // `json_compilation_db::read` names neither: "expected `[`"). The input is as
        // large as the file.
        let entries: Vec<json_compilation_db::Entry> =
            serde_json::from_slice(&bytes).map_err(|e| {
                usage(format!(
                    "the compile database `{}` is not valid: {e}",
                    file.display()
                ))
            })?;
        let mut db = Database {
            path: file.clone(),
            ..Database::default()
        };
        for entry in entries {
            // A relative `directory` is taken relative to the database's own directory.
            let here = absolute(
                file.parent().unwrap_or(Path::new(".")),
                &std::env::current_dir().unwrap_or_default(),
            );
            let dir = absolute(&entry.directory, &here);
            let source = absolute(&entry.file, &dir);
            let args = preprocessor_args(&entry.arguments, &dir);
            if !db.entries.contains_key(&source) {
                db.files.push(source.clone());
            }
            // The first entry of a file wins (a file built twice: its first configuration).
            db.entries.entry(source).or_insert(args);
        }
        Ok(db)
    }

    /// The preprocessor options of `file` (any path naming a listed source), if listed.
    pub fn args(&self, file: &Path) -> Option<&[String]> {
        let abs = absolute(file, &std::env::current_dir().unwrap_or_default());
        self.entries
            .get(&abs)
            .or_else(|| {
                let canon = std::fs::canonicalize(file).ok()?;
                self.entries
                    .iter()
                    .find(|(k, _)| std::fs::canonicalize(k).ok().as_ref() == Some(&canon))
                    .map(|(_, v)| v)
            })
            .map(|v| v.as_slice())
    }
}

/// The preprocessor options among a compiler command's arguments (the compiler itself, the
/// source, `-c`, `-o out` and everything else dropped), paths made absolute against `dir`.
pub fn preprocessor_args(arguments: &[String], dir: &Path) -> Vec<String> {
    let mut out = vec![];
    let mut it = arguments.iter().skip(1);
    while let Some(a) = it.next() {
        if let Some(opt) = PATH_OPTIONS.iter().find(|o| a.starts_with(**o)) {
            let value = if a.len() > opt.len() {
                Some(a[opt.len()..].to_string())
            } else {
                it.next().cloned()
            };
            if let Some(v) = value {
                let p = absolute(Path::new(&v), dir);
                if opt.len() == 2 {
                    out.push(format!("{opt}{}", p.display()));
                } else {
                    out.push(opt.to_string());
                    out.push(p.display().to_string());
                }
            }
        } else if let Some(opt) = VALUE_OPTIONS.iter().find(|o| a.starts_with(**o)) {
            let value = if a.len() > opt.len() {
                Some(a[opt.len()..].to_string())
            } else {
                it.next().cloned()
            };
            if let Some(v) = value {
                out.push(format!("{opt}{v}"));
            }
        } else if a.starts_with("-std=") || FLAGS.contains(&a.as_str()) {
            out.push(a.clone());
        } else if a == "-o" || a == "-MF" || a == "-MT" || a == "-MQ" || a == "-x" {
            it.next();
        }
    }
    out
}

/// The translation units of a program made of `files`: each file listed in `db` is
/// preprocessed with its own options; a file not listed (typically the harness with `main`)
/// with the options of the listed files among `files` (their union, in order), so it sees
/// the same headers. `extra` (`-I`/`-D` of the command line or the config) comes last for
/// every file.
pub fn inputs(
    files: &[PathBuf],
    db: Option<&Database>,
    extra: &[String],
) -> Vec<ladr_c::frontend::link::Input> {
    let listed: Vec<Option<&[String]>> = files.iter().map(|f| db.and_then(|d| d.args(f))).collect();
    let mut union: Vec<String> = vec![];
    for args in listed.iter().flatten() {
        let mut it = args.iter();
        while let Some(a) = it.next() {
            let mut group = vec![a.clone()];
            if PATH_OPTIONS.contains(&a.as_str()) {
                group.extend(it.next().cloned());
            }
            let present = union.windows(group.len()).any(|w| w == group.as_slice());
            if !present {
                union.extend(group);
            }
        }
    }
    files
        .iter()
        .zip(listed)
        .map(|(f, args)| {
            let mut cpp_args = args.map(|a| a.to_vec()).unwrap_or_else(|| union.clone());
            cpp_args.extend(extra.iter().cloned());
            ladr_c::frontend::link::Input {
                path: f.clone(),
                opts: ladr_c::frontend::Options {
                    cpp_args,
                    preprocessed: false,
                },
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn s(v: &[&str]) -> Vec<String> {
        v.iter().map(|x| x.to_string()).collect()
    }

    #[test]
    fn keeps_preprocessor_options_with_absolute_paths() {
        let args = s(&[
            "/usr/bin/cc",
            "-Iinclude",
            "-I",
            "../common",
            "-DNDEBUG",
            "-D",
            "X=1",
            "-O2",
            "-Wall",
            "-std=gnu11",
            "-isystem",
            "third",
            "-include",
            "cfg.h",
            "-o",
            "obj/q.o",
            "-c",
            "src/q.c",
            "-pthread",
            "-UY",
        ]);
        let out = preprocessor_args(&args, Path::new("/p/build"));
        assert_eq!(
            out,
            s(&[
                "-I/p/build/include",
                "-I/p/common",
                "-DNDEBUG",
                "-DX=1",
                "-std=gnu11",
                "-isystem",
                "/p/build/third",
                "-include",
                "/p/build/cfg.h",
                "-pthread",
                "-UY",
            ])
        );
    }

    #[test]
    fn reads_command_and_arguments_entries() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path().to_path_buf();
        let db = format!(
            r#"[
  {{ "directory": "{d}", "command": "cc -I inc -DA=\"x y\" -c a.c -o a.o", "file": "a.c" }},
  {{ "directory": "{d}/sub", "arguments": ["cc", "-I..", "-c", "../b.c"], "file": "../b.c" }}
]"#,
            d = dir.display()
        );
        std::fs::write(dir.join("compile_commands.json"), db).unwrap();
        let db = Database::load(&dir).unwrap();
        assert_eq!(
            db.args(&dir.join("a.c")).unwrap(),
            &s(&[&format!("-I{}/inc", dir.display()), "-DA=x y"])[..]
        );
        assert_eq!(
            db.args(&dir.join("sub/../b.c")).unwrap(),
            &s(&[&format!("-I{}", dir.display())])[..]
        );
        assert!(db.args(&dir.join("c.c")).is_none());
        assert_eq!(db.files.len(), 2);
        let bad = Database::load(&dir.join("missing.json")).unwrap_err();
        assert!(bad.message.contains("missing.json"), "{}", bad.message);
        // A syntax error names its line and column (found by tests/fuzz.rs).
        for text in [
            "[\n  {\n  x",
            "{}",
            "",
            "[{\"directory\": 1}]",
            "[{\"file\": \"a.c\"}]",
        ] {
            std::fs::write(dir.join("bad.json"), text).unwrap();
            let bad = Database::load(&dir.join("bad.json")).unwrap_err();
            assert!(
                bad.message.contains("bad.json") && bad.message.contains(" line "),
                "{text:?}: {}",
                bad.message
            );
        }
        let bad = Database::load(&dir.join("missing.json")).unwrap_err();
        assert!(bad.message.contains("missing.json"), "{}", bad.message);
    }
}
