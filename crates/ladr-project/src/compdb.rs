//! The build's compile database (`compile_commands.json`, from CMake's
//! `-DCMAKE_EXPORT_COMPILE_COMMANDS=ON`, Bear, meson, …), read with the
//! `json_compilation_db` crate: for each listed source, the preprocessor options its build
//! uses.
//!
//! Of an entry's arguments only those that change what the preprocessor produces are kept:
//! `-I`, `-isystem`, `-iquote`, `-idirafter`, `-include`, `-imacros` (paths made absolute
//! against the entry's `directory`), `-D`, `-U`, `-std=`, `-m32`/`-m64`, `-pthread` — the
//! allow-list of [`ladr_c::frontend::cpp_options`], shared with `ladr.toml`'s `flags`.
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

use ladr_c::frontend::cpp_options::{self, CppOption};

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

    /// Refuses an entry that makes gcc include a file outside `root` (`-include
    /// /etc/shadow`: gcc would print it into the program, and a report would quote it).
    /// `-I` and friends outside `root` stay: they only change where the headers a source
    /// names are looked for (system and build directories are often outside).
    pub fn check_includes_within(&self, root: &Path) -> Result<()> {
        for source in &self.files {
            let args = &self.entries[source];
            for w in args.windows(2) {
                if (w[0] == "-include" || w[0] == "-imacros")
                    && !crate::config::inside(root, Path::new(&w[1]))
                {
                    return Err(Error::new(
                        ErrorKind::Usage,
                        format!(
                            "{}: the entry of `{}` has `{} {}`, a file outside `{}`: a compile \
                             database may include only files of the repository",
                            self.path.display(),
                            source.display(),
                            w[0],
                            w[1],
                            root.display()
                        ),
                    ));
                }
            }
        }
        Ok(())
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
/// source, `-c`, `-o out` and everything else dropped: the allow-list of
/// [`cpp_options`]), paths made absolute against `dir`.
pub fn preprocessor_args(arguments: &[String], dir: &Path) -> Vec<String> {
    let mut out = vec![];
    let args = arguments.get(1..).unwrap_or_default();
    let mut i = 0;
    while i < args.len() {
        let a = &args[i];
        let (r, n) = cpp_options::next(&args[i..]);
        match r {
            Ok(CppOption::Path { opt, path }) => {
                let path = absolute(Path::new(&path), dir).display().to_string();
                out.extend(CppOption::Path { opt, path }.args());
                i += n;
            }
            Ok(o) => {
                out.extend(o.args());
                i += n;
            }
            // Options of the build that take a value as the next argument.
            Err(_) if ["-o", "-MF", "-MT", "-MQ", "-x"].contains(&a.as_str()) => i += 2,
            Err(_) => i += 1,
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
            if cpp_options::PATH_OPTIONS.contains(&a.as_str()) {
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
                    ..Default::default()
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
    fn drops_options_that_run_programs() {
        let args = s(&[
            "cc",
            "-wrapper",
            "/bin/sh,-c,touch /tmp/x",
            "-fplugin=/tmp/p.so",
            "-B/tmp",
            "-specs=/tmp/s",
            "@/tmp/opts",
            "-dumpbase",
            "x",
            "-DOK",
        ]);
        assert_eq!(preprocessor_args(&args, Path::new("/p")), s(&["-DOK"]));
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
        // A syntax error names its line and column (found by tests/it/fuzz).
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
