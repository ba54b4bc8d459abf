//! The SAT solver behind CBMC: its own MiniSat, CaDiCaL as an external solver, or both at
//! once (a portfolio: two CBMC runs, the first verdict wins).
//!
//! CBMC 6.6 as Debian builds it links MiniSat only (`--sat-solver cadical` falls back to
//! MiniSat with a warning). `--external-sat-solver CMD` makes it write the formula as a
//! DIMACS file and run `CMD FILE` itself — through a shell: CBMC 6.6 starts
//! `sh -c -- CMD FILE` (seen in the process list) — reading the SAT competition's
//! `s SATISFIABLE` / `v …` lines back. CaDiCaL's
//! command-line solver speaks exactly that. `scripts/install-cbmc` installs the
//! distribution's `cadical` into ladr's user-level directory.
//!
//! Where the solver comes from: `$LADR_CADICAL` (a path the user names), `cadical` on
//! `PATH`, beside the ladr binary, or the copy `scripts/install-cbmc` installed — never
//! from the checked program. Because a shell reads it, the path is handed to CBMC only
//! after checks ([`usable_path`]): absolute, an existing regular file, and spelled with
//! letters, digits and `/._+-` only, so the shell sees one word and nothing to expand; the
//! DIMACS file lies in the run's temporary directory, checked the same way before a run
//! (`run`).
//!
//! Measurements (`docs/decisions/speed.md`) chose the default.

use std::fmt;
use std::path::{Path, PathBuf};

/// Environment variable naming the CaDiCaL binary to use.
pub const CADICAL_VAR: &str = "LADR_CADICAL";

/// The solver the user asks for (`--solver`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Choice {
    /// CBMC's own MiniSat 2 (with its simplifier).
    #[default]
    Minisat,
    /// CaDiCaL, run by CBMC on the formula's DIMACS file.
    Cadical,
    /// Both at once, each in a CBMC of its own: the first verdict wins, the other is
    /// killed.
    Portfolio,
}

impl Choice {
    /// The solvers of one check: `cadical` is CaDiCaL's path ([`locate_cadical`]), needed
    /// by `Cadical` and `Portfolio` only.
    pub fn solvers(self, cadical: Option<PathBuf>) -> Result<Vec<Solver>, NotFound> {
        let external = || cadical.clone().map(Solver::External).ok_or(NotFound);
        Ok(match self {
            Choice::Minisat => vec![Solver::Minisat],
            Choice::Cadical => vec![external()?],
            Choice::Portfolio => vec![Solver::Minisat, external()?],
        })
    }

    /// The name the command line uses.
    pub fn name(self) -> &'static str {
        match self {
            Choice::Minisat => "minisat",
            Choice::Cadical => "cadical",
            Choice::Portfolio => "portfolio",
        }
    }
}

/// The solver of one CBMC run.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub enum Solver {
    /// CBMC's built-in MiniSat.
    #[default]
    Minisat,
    /// An external DIMACS solver at this path (checked by [`usable_path`]).
    External(PathBuf),
}

impl Solver {
    /// CBMC's arguments that select this solver.
    pub fn arguments(&self) -> Vec<std::ffi::OsString> {
        match self {
            Solver::Minisat => Vec::new(),
            Solver::External(p) => vec!["--external-sat-solver".into(), p.into()],
        }
    }

    /// A short name for messages.
    pub fn name(&self) -> &'static str {
        match self {
            Solver::Minisat => "MiniSat",
            Solver::External(_) => "CaDiCaL",
        }
    }
}

/// CaDiCaL was not found; `Display` says how to get it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct NotFound;

impl fmt::Display for NotFound {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "the SAT solver CaDiCaL was not found (set {CADICAL_VAR}=/path/to/cadical, put \
             `cadical` on PATH, or run `scripts/install-cbmc`); --solver minisat needs none"
        )
    }
}

impl std::error::Error for NotFound {}

/// A path CBMC may be given as its external solver: absolute (not searched on `PATH`), an
/// existing regular file, and [`shell_word`].
pub fn usable_path(p: &Path) -> bool {
    p.is_absolute() && shell_word(p) && p.is_file()
}

/// True if the shell reads `p` as one word with nothing to expand or quote: ASCII letters,
/// digits and `/._+-`, not starting with `-`.
pub fn shell_word(p: &Path) -> bool {
    let Some(text) = p.to_str() else { return false };
    !text.is_empty()
        && !text.starts_with('-')
        && text
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "/._+-".contains(c))
}

/// Finds CaDiCaL: `$LADR_CADICAL` if set (an error if it names no usable program: the
/// user asked for that one), else `cadical` on `PATH`, else beside the running executable,
/// else `bin/cadical` in ladr's user-level directory (where `scripts/install-cbmc` puts
/// it). The result is absolute.
pub fn locate_cadical() -> Result<PathBuf, NotFound> {
    let absolute = |p: PathBuf| std::fs::canonicalize(&p).ok().filter(|p| usable_path(p));
    if let Some(v) = std::env::var_os(CADICAL_VAR).filter(|v| !v.is_empty()) {
        return absolute(PathBuf::from(v)).ok_or(NotFound);
    }
    if let Some(p) = which::which("cadical").ok().and_then(absolute) {
        return Ok(p);
    }
    let beside = std::env::current_exe()
        .ok()
        .and_then(|e| Some(e.parent()?.join("cadical")));
    if let Some(p) = beside.and_then(absolute) {
        return Ok(p);
    }
    let installed = crate::installed_launcher().and_then(|l| Some(l.parent()?.join("cadical")));
    installed.and_then(absolute).ok_or(NotFound)
}

/// The outcome of a run with an external solver whose DIMACS file would lie in a
/// directory a shell cannot read as one word (CBMC names that file to the shell): no
/// verdict, and CBMC is not started. `None` when the run may go ahead.
pub(crate) fn refused_temp_dir(opts: &crate::Options) -> Option<crate::Outcome> {
    if !opts
        .solvers
        .first()
        .is_some_and(|s| matches!(s, Solver::External(_)))
    {
        return None;
    }
    let dir = opts.temp_dir.clone().unwrap_or_else(std::env::temp_dir);
    if shell_word(&dir) {
        return None;
    }
    Some(crate::Outcome {
        verdict: crate::Verdict::Unknown {
            reason: format!(
                "CaDiCaL not run: CBMC hands its file to a shell, and the temporary directory \
                 `{}` is not one plain word (letters, digits, `/._+-`); set TMPDIR or use \
                 --solver minisat",
                dir.display()
            ),
        },
        exit_code: None,
        wall: std::time::Duration::ZERO,
        timed_out: false,
        formula: None,
        stdout: String::new(),
        stderr: String::new(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_choice_names_its_solvers() {
        let cad = PathBuf::from("/opt/cadical");
        let ext = Solver::External(cad.clone());
        assert_eq!(Choice::Minisat.solvers(None), Ok(vec![Solver::Minisat]));
        assert_eq!(
            Choice::Cadical.solvers(Some(cad.clone())),
            Ok(vec![ext.clone()])
        );
        assert_eq!(
            Choice::Portfolio.solvers(Some(cad)),
            Ok(vec![Solver::Minisat, ext])
        );
        assert_eq!(Choice::Cadical.solvers(None), Err(NotFound));
        assert_eq!(Choice::Portfolio.solvers(None), Err(NotFound));
    }

    #[test]
    fn only_absolute_plain_paths_of_files_reach_cbmc() {
        let dir = tempfile::tempdir().unwrap();
        let d = dir.path();
        let f = d.join("cadical");
        std::fs::write(&f, "").unwrap();
        assert!(usable_path(&f));
        assert!(!usable_path(Path::new("cadical")));
        assert!(!usable_path(d), "a directory");
        assert!(!usable_path(&d.join("missing")));
        for odd in [
            "cadical\n--trace",
            "a b",
            "x;rm",
            "$(id)",
            "`id`",
            "a'b",
            "*",
        ] {
            let p = d.join(odd);
            std::fs::write(&p, "").unwrap();
            assert!(!usable_path(&p), "{odd:?} would reach a shell");
        }
        assert!(shell_word(Path::new("/tmp/ladr-Ab3_x/cadical-1.5.3+x")));
    }

    #[test]
    fn an_external_solver_needs_a_plain_temporary_directory() {
        let mut o = crate::Options::new(PathBuf::from("/bin/false"));
        o.solvers = vec![Solver::External(PathBuf::from("/opt/cadical"))];
        o.temp_dir = Some(PathBuf::from("/tmp/a b"));
        let out = refused_temp_dir(&o).expect("refused");
        assert!(matches!(out.verdict, crate::Verdict::Unknown { .. }));
        o.temp_dir = Some(PathBuf::from("/tmp/ladr-x1"));
        assert!(refused_temp_dir(&o).is_none());
        o.solvers = vec![Solver::Minisat];
        o.temp_dir = Some(PathBuf::from("/tmp/a b"));
        assert!(refused_temp_dir(&o).is_none(), "MiniSat reads no file");
    }

    #[test]
    fn external_solvers_are_one_argument() {
        let s = Solver::External(PathBuf::from("/a b/cadical"));
        assert_eq!(
            s.arguments(),
            vec![
                std::ffi::OsString::from("--external-sat-solver"),
                "/a b/cadical".into()
            ]
        );
        assert!(Solver::Minisat.arguments().is_empty());
    }
}
