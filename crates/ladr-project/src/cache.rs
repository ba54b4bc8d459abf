//! `ladr check`'s result cache: the outcome of a harness whose program and options did not
//! change is read back instead of checked again.
//!
//! The key is the SHA-256 of the ladr version, the CBMC binary's path, every option that
//! shapes the answer (rounds, unwinding, time limit, deepening, data model, races asked
//! for, preprocessor flags) and the text ladr parsed: the preprocessed, linked program, so
//! an edit to any file the harness includes changes it. Only verdicts are kept (`race`,
//! `no-race`): a time limit reached or a failure is checked again on the next run.
//!
//! The entries are `KEY.json` files (the outcome as `--format json` shows it) in the user's
//! cache directory, `$XDG_CACHE_HOME/ladr/results` (else `~/.cache/ladr/results`), or the
//! `--cache-dir` given; `--no-cache` checks again (and writes the new answer). Removing the
//! directory is always safe. Never inside the checked repository by default: a cache
//! there could be committed, and an entry planted under a key the author computed would
//! pass the gate without a check.

use crate::config::Harness;
use ladr_report::{witness, Outcome};
use std::path::{Path, PathBuf};

/// The directory under the user's cache directory.
pub const DIR: &str = "ladr/results";

/// Where the cache is and whether it is read.
#[derive(Clone, Debug)]
pub struct Cache {
    pub dir: PathBuf,
    /// `false` with `--no-cache`: answers are written, never read.
    pub read: bool,
}

impl Cache {
    /// The user's cache (`$XDG_CACHE_HOME`, else `$HOME/.cache`; none without either).
    pub fn user(read: bool) -> Option<Cache> {
        let base = std::env::var_os("XDG_CACHE_HOME")
            .filter(|x| Path::new(x).is_absolute())
            .map(PathBuf::from)
            .or_else(|| {
                std::env::var_os("HOME")
                    .filter(|h| Path::new(h).is_absolute())
                    .map(|h| PathBuf::from(h).join(".cache"))
            })?;
        Some(Cache {
            dir: base.join(DIR),
            read,
        })
    }

    /// The key of checking `text` (the parsed program) as `h` says, with `cbmc`.
    pub fn key(text: &str, h: &Harness, cbmc: &Path) -> String {
        let options = format!(
            "ladr {}\0cbmc {}\0rounds {} unwind {} timeout {:?} deepen {} ilp32 {} max-races {:?} \
             flags {:?}\0library {:?}\0",
            ladr_report::TOOL.version,
            cbmc.display(),
            h.rounds,
            h.unwind,
            h.timeout,
            h.deepen,
            h.ilp32,
            h.max_races,
            h.flags,
            // Library mode generates `main` from these: each pair of entries is its own
            // program though the files' text is the same.
            h.library,
        );
        let mut all = options.into_bytes();
        all.extend_from_slice(text.as_bytes());
        witness::hex(&witness::sha256(&all))
    }

    fn path(&self, key: &str) -> PathBuf {
        self.dir.join(format!("{key}.json"))
    }

    /// Whether an answer for `key` is kept (read or not).
    pub fn holds(&self, key: &str) -> bool {
        self.path(key).is_file()
    }

    /// The kept outcome for `key`, unless `--no-cache` or none (an entry that does not read
    /// back, from another version's schema, is no entry).
    pub fn get(&self, key: &str) -> Option<Outcome> {
        if !self.read {
            return None;
        }
        let text = std::fs::read_to_string(self.path(key)).ok()?;
        let o: Outcome = serde_json::from_str(&text).ok()?;
        (o.schema == ladr_report::SCHEMA_VERSION).then_some(o)
    }

    /// Keeps `o` under `key` if it is a verdict; a cache that cannot be written is only a
    /// slower next run.
    pub fn put(&self, key: &str, o: &Outcome) {
        if !matches!(o.verdict.as_str(), "race" | "no-race") {
            return;
        }
        if std::fs::create_dir_all(&self.dir).is_err() {
            return;
        }
        // Written aside, then renamed: a reader never sees half an entry.
        let aside = self.dir.join(format!(".{key}.{}.tmp", std::process::id()));
        let text = ladr_report::json(o);
        if ladr_cbmc::files::write_no_follow(&aside, text.as_bytes()).is_ok()
            && std::fs::rename(&aside, self.path(key)).is_err()
        {
            let _ = std::fs::remove_file(&aside);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Cache;
    use ladr_c::diag::{Error, ErrorKind};

    #[test]
    fn verdicts_are_kept_and_read_back_others_are_not() {
        let dir = tempfile::tempdir().unwrap();
        let cache = Cache {
            dir: dir.path().join("c"),
            read: true,
        };
        let opts = ladr_ir::program::Options::default();
        let e = Error::new(ErrorKind::Backend, "time limit");
        let mut o = ladr_report::error_outcome("a.c", &e, None, &opts);
        cache.put("k1", &o);
        assert!(
            !cache.holds("k1"),
            "an unknown answer is checked again next time"
        );
        o.verdict = "no-race".into();
        o.error = None;
        cache.put("k2", &o);
        let back = cache.get("k2").expect("kept");
        assert_eq!(back.verdict, "no-race");
        assert_eq!(back.input, "a.c");
        assert_eq!(ladr_report::json(&back), ladr_report::json(&o));
        let unread = Cache {
            read: false,
            ..cache.clone()
        };
        assert!(unread.get("k2").is_none() && unread.holds("k2"));
        std::fs::write(cache.dir.join("k3.json"), "{\"schema\": 1}").unwrap();
        assert!(
            cache.get("k3").is_none(),
            "an entry that does not read back is none"
        );
    }
}
