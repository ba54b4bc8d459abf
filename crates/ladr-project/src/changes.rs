//! `ladr check --changed-since REV`: the files that changed since a git revision, so that
//! only the harnesses reading one of them are checked.
//!
//! git runs with a fixed argument vector (never a shell); REV is checked first (no leading
//! `-`, only the characters of revision names and `~^@{}` suffixes) and passed after
//! `--end-of-options`, then resolved to a commit whose hash is all the later commands see.

use ladr_c::diag::{Error, ErrorKind, Result};
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::Command;

/// Refuses a REV that is not the name of a revision (`main`, `origin/main`, `HEAD~1`,
/// `v1.2^`, a hash).
pub fn check_rev(rev: &str) -> Result<()> {
    let allowed = |c: char| c.is_ascii_alphanumeric() || "._-/~^@{}".contains(c);
    if rev.is_empty()
        || rev.len() > 256
        || rev.starts_with('-')
        || rev.contains("..")
        || !rev.chars().all(allowed)
    {
        return Err(Error::new(
            ErrorKind::Usage,
            format!(
                "--changed-since `{}`: give a git revision (a branch, a tag, a commit, `HEAD~1`)",
                ladr_c::diag::visible(rev)
            ),
        ));
    }
    Ok(())
}

/// Runs git in `dir` with `args`; its standard output, or a usage error naming `what`.
fn git(dir: &Path, args: &[&str], what: &str) -> Result<Vec<u8>> {
    let out = Command::new("git")
        .arg("-C")
        .arg(dir)
        .args(args)
        .stdin(std::process::Stdio::null())
        .output()
        .map_err(|e| {
            Error::new(
                ErrorKind::Usage,
                format!("--changed-since: cannot run git: {e}"),
            )
        })?;
    if !out.status.success() {
        let why = String::from_utf8_lossy(&out.stderr).trim().to_string();
        return Err(Error::new(
            ErrorKind::Usage,
            format!("--changed-since: {what}: {}", ladr_c::diag::visible(&why)),
        ));
    }
    Ok(out.stdout)
}

/// The files (absolute, normalised) changed between `rev` and the work tree of the
/// repository holding `dir`, and the files git does not track yet (not ignored ones).
pub fn since(dir: &Path, rev: &str) -> Result<BTreeSet<PathBuf>> {
    check_rev(rev)?;
    let dir = if dir.as_os_str().is_empty() {
        Path::new(".")
    } else {
        dir
    };
    let top = git(
        dir,
        &["rev-parse", "--show-toplevel"],
        "not in a git repository",
    )?;
    let top = PathBuf::from(String::from_utf8_lossy(&top).trim_end_matches(['\n', '\r']));
    let spec = format!("{rev}^{{commit}}");
    let commit = git(
        &top,
        &[
            "rev-parse",
            "--verify",
            "--quiet",
            "--end-of-options",
            &spec,
        ],
        &format!("`{rev}` is not a commit of the repository"),
    )?;
    let commit = String::from_utf8_lossy(&commit).trim().to_string();
    let mut out = BTreeSet::new();
    for args in [
        vec![
            "diff",
            "--name-only",
            "-z",
            "--no-renames",
            commit.as_str(),
            "--",
        ],
        vec![
            "ls-files",
            "-z",
            "--full-name",
            "--others",
            "--exclude-standard",
        ],
    ] {
        let names = git(&top, &args, "git failed")?;
        for name in names.split(|b| *b == 0).filter(|n| !n.is_empty()) {
            out.insert(normal(&top.join(String::from_utf8_lossy(name).as_ref())));
        }
    }
    Ok(out)
}

/// `p` absolute, through symbolic links where it exists.
pub fn normal(p: &Path) -> PathBuf {
    p.canonicalize().unwrap_or_else(|_| {
        ladr_report::sarif::absolute(p, &std::env::current_dir().unwrap_or_default())
    })
}

#[cfg(test)]
mod tests {
    use super::check_rev;

    #[test]
    fn revisions_are_names_never_options() {
        for ok in [
            "main",
            "origin/main",
            "HEAD~1",
            "v1.2^",
            "abc123",
            "HEAD@{1}",
            "release-2.0",
        ] {
            assert!(check_rev(ok).is_ok(), "{ok}");
        }
        for bad in [
            "",
            "-p",
            "--output=x",
            "a..b",
            "a b",
            "HEAD;true",
            "$(id)",
            "a:b",
            "x\ny",
        ] {
            assert!(check_rev(bad).is_err(), "{bad:?}");
        }
    }
}
