//! Compiler flags pasted onto `ladr FILE`'s command line (`ladr x.c -std=c11 -O2 -Wall
//! -pthread`): taken out before clap reads the rest, which would otherwise read `-std=c11`
//! as the short options `-s -t -d …`.
//!
//! Flags that change what the preprocessor produces go to it, and only from the allow-list
//! of `ladr_c::frontend::cpp_options` (`-std=` with a known standard, `-pthread`, `-m64`,
//! the macro-selecting `-f` flags): nothing from the command line reaches a shell or gcc
//! unchecked. Flags that do not change the program's meaning for ladr (optimisation `-O*`,
//! warnings `-W*`, debug information `-g*`, other `-f*`, machine tuning `-m*`, libraries
//! `-l*`/`-L*`) are ignored with a note. Flags that would change the program in a way ladr
//! cannot follow that way (`-m32`: use `--32`; `-Wp,`: write `-D`/`-I` directly) are
//! refused.

use ladr_c::frontend::cpp_options;
use std::ffi::OsString;

/// The command line with the compiler flags taken out.
#[derive(Debug, Default)]
pub struct Split {
    /// The arguments left for clap (the program name first).
    pub args: Vec<OsString>,
    /// Flags for the preprocessor, each on the allow-list.
    pub cpp: Vec<String>,
    /// Flags ignored, for the note.
    pub ignored: Vec<String>,
}

/// The subcommands, whose command lines are left as they are.
const SUBCOMMANDS: &[&str] = &["check", "init", "eval", "swarm", "help"];

/// Takes the compiler flags out of `args` (the program name first). `with_values` are
/// ladr's options written with a separate value (`-I dir`): their value is never read as a
/// flag. Arguments after `--` are left alone. `Err`: a flag ladr refuses, and why.
pub fn split(args: Vec<OsString>, with_values: &[String]) -> Result<Split, String> {
    let mut out = Split::default();
    if args
        .get(1)
        .and_then(|a| a.to_str())
        .is_some_and(|a| SUBCOMMANDS.contains(&a))
    {
        out.args = args;
        return Ok(out);
    }
    let mut it = args.into_iter();
    out.args.extend(it.next());
    while let Some(arg) = it.next() {
        let Some(a) = arg.to_str().map(str::to_string) else {
            out.args.push(arg);
            continue;
        };
        if a == "--" {
            out.args.push(arg);
            out.args.extend(it.by_ref());
            break;
        }
        if with_values.contains(&a) {
            out.args.push(arg);
            out.args.extend(it.next());
            continue;
        }
        match classify(&a)? {
            Kind::Ladr => out.args.push(arg),
            Kind::Preprocessor => out.cpp.push(a),
            Kind::Ignored => out.ignored.push(a),
        }
    }
    Ok(out)
}

/// What one argument is.
#[derive(Debug, PartialEq, Eq)]
enum Kind {
    /// ladr's own (an option, a file): left for clap.
    Ladr,
    /// A compiler flag for the preprocessor (checked against the allow-list).
    Preprocessor,
    /// A compiler flag that does not change the program for ladr.
    Ignored,
}

fn classify(a: &str) -> Result<Kind, String> {
    if a.starts_with("--") || !a.starts_with('-') {
        return Ok(Kind::Ladr);
    }
    if let Some(value) = a.strip_prefix("-std=") {
        cpp_options::standard(value)?;
        return Ok(Kind::Preprocessor);
    }
    if a == "-m32" {
        return Err("`-m32`: write `--32` for the 32-bit data model (ILP32)".into());
    }
    if a.starts_with("-Wp,") {
        return Err(format!(
            "`{a}`: ladr does not pass options through `-Wp,`; write -D/-I/-U directly"
        ));
    }
    if cpp_options::FLAGS.contains(&a) || (a.starts_with("-U") && a.len() > 2) {
        return Ok(Kind::Preprocessor);
    }
    let optimisation = a.strip_prefix("-O").is_some_and(|level| {
        matches!(level, "" | "0" | "1" | "2" | "3" | "s" | "g" | "z" | "fast")
    });
    let ignored = optimisation
        || (a.starts_with("-W") && a.len() > 2)
        || a.starts_with("-g")
        || (a.starts_with("-f") && a.len() > 2)
        || (a.starts_with("-m") && a.len() > 2)
        || (a.starts_with("-l") && a.len() > 2)
        || (a.starts_with("-L") && a.len() > 2)
        || matches!(a, "-pipe" | "-rdynamic" | "-pedantic" | "-pedantic-errors");
    Ok(if ignored { Kind::Ignored } else { Kind::Ladr })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn os(v: &[&str]) -> Vec<OsString> {
        v.iter().map(OsString::from).collect()
    }

    #[test]
    fn compiler_flags_are_taken_out() {
        let s = split(
            os(&[
                "ladr",
                "x.c",
                "-std=gnu99",
                "-O2",
                "-Wall",
                "-g",
                "-pthread",
                "-fopenmp",
                "-m64",
                "-fPIC",
                "-fno-strict-aliasing",
                "-I",
                "-g",
                "-DX=1",
                "--rounds",
                "3",
                "-lpthread",
                "-UNDEBUG",
            ]),
            &["-I".into(), "--rounds".into()],
        )
        .unwrap();
        assert_eq!(
            s.args,
            os(&["ladr", "x.c", "-I", "-g", "-DX=1", "--rounds", "3"])
        );
        assert_eq!(
            s.cpp,
            [
                "-std=gnu99",
                "-pthread",
                "-fopenmp",
                "-m64",
                "-fPIC",
                "-UNDEBUG"
            ]
        );
        assert_eq!(
            s.ignored,
            ["-O2", "-Wall", "-g", "-fno-strict-aliasing", "-lpthread"]
        );
    }

    #[test]
    fn unknown_standards_and_meaning_changing_flags_are_refused() {
        for bad in [
            "-std=c++17",
            "-std=c11 -wrapper",
            "-std=",
            "-m32",
            "-Wp,-DX",
        ] {
            let e = split(os(&["ladr", "x.c", bad]), &[]).unwrap_err();
            assert!(e.contains(bad.split(' ').next().unwrap()), "{e}");
        }
    }

    #[test]
    fn subcommands_and_arguments_after_dashes_are_left_alone() {
        let s = split(os(&["ladr", "check", "-O2"]), &[]).unwrap();
        assert_eq!(s.args, os(&["ladr", "check", "-O2"]));
        let s = split(os(&["ladr", "--", "-O2"]), &[]).unwrap();
        assert_eq!(s.args, os(&["ladr", "--", "-O2"]));
        assert!(s.cpp.is_empty() && s.ignored.is_empty());
    }
}
