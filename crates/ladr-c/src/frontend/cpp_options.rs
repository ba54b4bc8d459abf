//! The one allow-list of preprocessor options ladr passes to `gcc -E`, shared by the
//! command line, `ladr.toml`'s `flags`, the compile database and the swarm manifest.
//!
//! ladr's inputs may come from someone the user does not trust (a pull request), and gcc
//! runs programs its options name: `-wrapper`, `-fplugin=`, `-B`, `-specs=`, and reads
//! response files (`@file`) wherever an argument starts with `@`. So only options that
//! change what the preprocessor produces are passed:
//!
//! * a path: `-I`, `-isystem`, `-iquote`, `-idirafter`, `-include`, `-imacros` (joined,
//!   `-Idir`, or as the next argument), the path not starting with `-` or `@`;
//! * a value: `-D`, `-U` (always passed joined, `-DNAME=VALUE`, so never an option);
//! * `-std=…` naming a standard of [`STANDARDS`];
//! * the flags of [`FLAGS`]: `-m32`, `-m64`, `-pthread`, `-ansi` and the `-f` options
//!   that only select predefined macros (`-funsigned-char` defines `__CHAR_UNSIGNED__`,
//!   `-fPIC` `__PIC__`, …).
//!
//! Everything else (output and dump options `-o`, `-M*`, `-dumpbase`, `-save-temps`,
//! plugins, specs, wrappers, `@file`) is refused.

/// Options that take a path, joined (`-Idir`) or as the next argument (`-I dir`).
pub const PATH_OPTIONS: &[&str] = &[
    "-I",
    "-isystem",
    "-iquote",
    "-idirafter",
    "-include",
    "-imacros",
];

/// Options that take a value that is not a path (passed joined).
pub const VALUE_OPTIONS: &[&str] = &["-D", "-U"];

/// Options passed as they are.
pub const FLAGS: &[&str] = &[
    "-m32",
    "-m64",
    "-pthread",
    "-ansi",
    "-fsigned-char",
    "-funsigned-char",
    "-fshort-wchar",
    "-fno-short-wchar",
    "-fshort-enums",
    "-fgnu89-inline",
    "-fno-gnu89-inline",
    "-fpic",
    "-fPIC",
    "-fpie",
    "-fPIE",
    "-fno-pic",
    "-fno-PIC",
    "-fno-pie",
    "-fno-PIE",
    "-fbuiltin",
    "-fno-builtin",
    "-ffreestanding",
    "-fhosted",
    "-fopenmp",
    "-fexceptions",
    "-fno-exceptions",
    "-fstack-protector",
    "-fstack-protector-strong",
    "-fstack-protector-all",
    "-fno-stack-protector",
    "-fdollars-in-identifiers",
    "-fno-dollars-in-identifiers",
];

/// The C standards `-std=` may name (gcc's spellings of them); any other is refused.
pub const STANDARDS: &[&str] = &[
    "c89",
    "c90",
    "c99",
    "c9x",
    "c11",
    "c1x",
    "c17",
    "c18",
    "c2x",
    "c23",
    "c2y",
    "gnu89",
    "gnu90",
    "gnu99",
    "gnu9x",
    "gnu11",
    "gnu1x",
    "gnu17",
    "gnu18",
    "gnu2x",
    "gnu23",
    "gnu2y",
    "iso9899:1990",
    "iso9899:199409",
    "iso9899:1999",
    "iso9899:199x",
    "iso9899:2011",
    "iso9899:2017",
    "iso9899:2018",
    "iso9899:2024",
];

/// Checks `-std=VALUE`: `Ok` for a standard of [`STANDARDS`], else why not.
pub fn standard(value: &str) -> std::result::Result<(), String> {
    if STANDARDS.contains(&value) {
        Ok(())
    } else {
        Err(format!(
            "`-std={value}` is not a C standard ladr knows (allowed: {})",
            STANDARDS.join(" ")
        ))
    }
}

/// One allowed option.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CppOption {
    /// One of [`PATH_OPTIONS`] and its path (as written).
    Path { opt: &'static str, path: String },
    /// `-D`/`-U` and its value.
    Value { opt: &'static str, value: String },
    /// `-std=…` or one of [`FLAGS`].
    Flag(String),
}

impl CppOption {
    /// The arguments for gcc: a path option as `-Idir` (two-letter) or `-include path`, a
    /// value option joined.
    pub fn args(&self) -> Vec<String> {
        match self {
            CppOption::Path { opt, path } if opt.len() == 2 => vec![format!("{opt}{path}")],
            CppOption::Path { opt, path } => vec![opt.to_string(), path.clone()],
            CppOption::Value { opt, value } => vec![format!("{opt}{value}")],
            CppOption::Flag(f) => vec![f.clone()],
        }
    }
}

/// Whether a path could be read by gcc as an option or a response file.
pub fn looks_like_option(path: &str) -> bool {
    path.starts_with('-') || path.starts_with('@')
}

/// Reads the option at `args[0]` (with its value, which may be `args[1]`): the option and
/// how many arguments it took, or why it is refused (and how many arguments to skip).
pub fn next(args: &[String]) -> (std::result::Result<CppOption, String>, usize) {
    let Some(a) = args.first() else {
        return (Err("no option".into()), 0);
    };
    let value = |opt: &str| -> (Option<String>, usize) {
        if a.len() > opt.len() {
            (Some(a[opt.len()..].to_string()), 1)
        } else {
            (args.get(1).cloned(), 2)
        }
    };
    // Longest first: `-include` and `-imacros` before nothing shorter, `-I` last.
    if let Some(opt) = PATH_OPTIONS.iter().rev().find(|o| a.starts_with(**o)) {
        return match value(opt) {
            (Some(p), n) if p.is_empty() || looks_like_option(&p) => (
                Err(format!(
                    "`{opt}` with `{p}`: a path must not start with `-` or `@` (write `./{p}`)"
                )),
                n,
            ),
            (Some(path), n) => (Ok(CppOption::Path { opt, path }), n),
            (None, n) => (Err(format!("`{opt}` without a path")), n),
        };
    }
    if let Some(opt) = VALUE_OPTIONS.iter().find(|o| a.starts_with(**o)) {
        return match value(opt) {
            (Some(value), n) if !value.is_empty() => (Ok(CppOption::Value { opt, value }), n),
            (_, n) => (Err(format!("`{opt}` without a macro name")), n),
        };
    }
    if let Some(value) = a.strip_prefix("-std=") {
        return match standard(value) {
            Ok(()) => (Ok(CppOption::Flag(a.clone())), 1),
            Err(m) => (Err(m), 1),
        };
    }
    if FLAGS.contains(&a.as_str()) {
        return (Ok(CppOption::Flag(a.clone())), 1);
    }
    (
        Err(format!(
            "`{a}` is not a preprocessor option ladr passes to gcc (allowed: {}, {}, -std=, {})",
            PATH_OPTIONS.join(" "),
            VALUE_OPTIONS.join(" "),
            FLAGS.join(" ")
        )),
        1,
    )
}

/// Checks a whole list of options: the allowed options, or the index of the first refused
/// argument and why.
pub fn check(args: &[String]) -> std::result::Result<Vec<CppOption>, (usize, String)> {
    let mut out = vec![];
    let mut i = 0;
    while i < args.len() {
        let (r, n) = next(&args[i..]);
        match r {
            Ok(o) => out.push(o),
            Err(m) => return Err((i, m)),
        }
        i += n.max(1);
    }
    Ok(out)
}

/// The arguments of checked options.
pub fn args(opts: &[CppOption]) -> Vec<String> {
    opts.iter().flat_map(|o| o.args()).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn s(v: &[&str]) -> Vec<String> {
        v.iter().map(|x| x.to_string()).collect()
    }

    #[test]
    fn keeps_preprocessor_options() {
        let opts = check(&s(&[
            "-Iinc",
            "-I",
            "dir",
            "-include",
            "a.h",
            "-DX=1",
            "-D",
            "Y",
            "-UZ",
            "-std=c11",
            "-m32",
            "-pthread",
            "-funsigned-char",
        ]))
        .unwrap();
        assert_eq!(
            args(&opts),
            s(&[
                "-Iinc",
                "-Idir",
                "-include",
                "a.h",
                "-DX=1",
                "-DY",
                "-UZ",
                "-std=c11",
                "-m32",
                "-pthread",
                "-funsigned-char"
            ])
        );
    }

    #[test]
    fn refuses_options_that_run_programs_or_write_files() {
        for bad in [
            &["-wrapper", "/bin/sh,-c,touch /tmp/x"][..],
            &["-fplugin=/tmp/x.so"],
            &["-B/tmp"],
            &["-B", "/tmp"],
            &["-specs=/tmp/x"],
            &["@opts"],
            &["-dumpbase", "x"],
            &["-save-temps"],
            &["-MD"],
            &["-o", "/tmp/out"],
            &["-I", "-wrapper"],
            &["-include", "@opts"],
            &["-imacros"],
            &["-D"],
            &["-std=c11 -wrapper"],
            &["-std=@opts"],
            &["-std="],
        ] {
            assert!(check(&s(bad)).is_err(), "{bad:?} accepted");
        }
        assert_eq!(check(&s(&["-DX", "-wrapper"])).unwrap_err().0, 1);
    }
}
