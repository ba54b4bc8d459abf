//! Writing files where someone else may have planted links (`--keep-files DIR` in a
//! checkout, `ladr init` in a repository): a file is never written through a symbolic link
//! (`O_NOFOLLOW`: a link in its place is an error), and a probe gets a fresh name.

use std::io::Write;
use std::path::Path;

/// Writes `bytes` to `path`, created or truncated, but never through a symbolic link in
/// its place (an error, "too many levels of symbolic links"), dangling or not.
pub fn write_no_follow(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let mut o = std::fs::OpenOptions::new();
    o.write(true).create(true).truncate(true);
    no_follow(&mut o);
    o.open(path)?.write_all(bytes)
}

/// Creates `path` with `bytes`; an existing entry of that name (a file, a dangling link)
/// is an error.
pub fn write_new(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let mut o = std::fs::OpenOptions::new();
    o.write(true).create_new(true);
    no_follow(&mut o);
    o.open(path)?.write_all(bytes)
}

/// Whether files can be created in `dir`: a probe file of a fresh name (never one of the
/// user's) is created there and removed.
pub fn probe_dir(dir: &Path) -> std::io::Result<()> {
    let probe = tempfile::Builder::new()
        .prefix(".ladr-probe-")
        .tempfile_in(dir)?;
    probe.close()
}

#[cfg(unix)]
fn no_follow(o: &mut std::fs::OpenOptions) {
    use std::os::unix::fs::OpenOptionsExt;
    o.custom_flags(libc::O_NOFOLLOW);
}

#[cfg(not(unix))]
fn no_follow(_: &mut std::fs::OpenOptions) {}

#[cfg(all(test, unix))]
mod tests {
    use super::*;

    #[test]
    fn never_writes_through_a_link() {
        let d = tempfile::tempdir().unwrap();
        let target = d.path().join("victim");
        std::fs::write(&target, "mine").unwrap();
        let link = d.path().join("seq.i");
        std::os::unix::fs::symlink(&target, &link).unwrap();
        assert!(write_no_follow(&link, b"x").is_err());
        assert!(write_new(&link, b"x").is_err());
        assert_eq!(std::fs::read_to_string(&target).unwrap(), "mine");
        // A dangling link is not followed either.
        let dangling = d.path().join("ladr.toml");
        std::os::unix::fs::symlink(d.path().join("new"), &dangling).unwrap();
        assert!(write_no_follow(&dangling, b"x").is_err());
        assert!(write_new(&dangling, b"x").is_err());
        assert!(!d.path().join("new").exists());
        // A plain file is written.
        let plain = d.path().join("cbmc.json");
        write_no_follow(&plain, b"1").unwrap();
        write_no_follow(&plain, b"2").unwrap();
        assert_eq!(std::fs::read_to_string(&plain).unwrap(), "2");
    }

    #[test]
    fn the_probe_leaves_a_users_file_alone() {
        let d = tempfile::tempdir().unwrap();
        let mine = d.path().join(".ladr-probe");
        std::fs::write(&mine, "mine").unwrap();
        probe_dir(d.path()).unwrap();
        assert_eq!(std::fs::read_to_string(&mine).unwrap(), "mine");
        assert_eq!(std::fs::read_dir(d.path()).unwrap().count(), 1);
    }
}
