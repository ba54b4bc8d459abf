//! Library-mode harnesses of `ladr.toml` (`entries = [...]` or `"auto"`): the pairs of an
//! `auto` harness, each a harness of its own named `HARNESS:f+g`, and the generated
//! `main` put into a harness's linked program (`ladr_seq::harness`).

use crate::compdb::{self, Database};
use crate::config::{Entries, Harness, Library};
use ladr_c::diag::{Error, ErrorKind};
use ladr_c::frontend::{link, Parsed};
use ladr_seq::harness::{self, Spec};

/// `harnesses` with each `entries = "auto"` one replaced by one harness per pair of its
/// files' exported functions (each with itself and with every other, at most
/// `max-pairs`, those that can share the library's state first). One whose files cannot be read, or export nothing, stays as it is (its
/// run reports why).
pub fn expand(harnesses: &[&Harness], db: Option<&Database>) -> Vec<Harness> {
    let mut out = vec![];
    for h in harnesses {
        let Some(
            lib @ Library {
                entries: Entries::Auto,
                ..
            },
        ) = &h.library
        else {
            out.push((*h).clone());
            continue;
        };
        let inputs = compdb::inputs(&h.files, db, &h.flags);
        let Ok(parsed) = link::load_all(&inputs) else {
            out.push((*h).clone());
            continue;
        };
        let files: Vec<String> = h.files.iter().map(|f| f.display().to_string()).collect();
        let functions = harness::exported(&parsed, &files);
        let (pairs, left_out) = harness::pairs(&parsed.unit, &functions, lib.max_pairs);
        if pairs.is_empty() {
            out.push((*h).clone());
            continue;
        }
        let note = (left_out > 0).then(|| {
            format!(
                "entries = \"auto\": {} of the {} pairs of {} exported functions checked \
                 (max-pairs = {}; the pairs that share file-scope state first)",
                pairs.len(),
                pairs.len() + left_out,
                functions.len(),
                lib.max_pairs
            )
        });
        for (f, g) in pairs {
            let mut one = (*h).clone();
            one.name = format!("{}:{f}+{g}", h.name);
            one.library = Some(Library {
                entries: Entries::Named(vec![f, g]),
                note: note.clone(),
                ..lib.clone()
            });
            out.push(one);
        }
    }
    out
}

/// The program of harness `h` with its generated `main` (library mode) and what that
/// harness assumes; none for a harness with `main`.
pub fn apply(h: &Harness, parsed: &Parsed) -> Result<Option<(Parsed, Vec<String>)>, Error> {
    let Some(lib) = &h.library else {
        return Ok(None);
    };
    let entries = match &lib.entries {
        Entries::Named(e) => e.clone(),
        Entries::Auto => {
            let e = Error::new(
                ErrorKind::Usage,
                format!(
                    "harness `{}`: entries = \"auto\" found no exported function (defined, \
                     not static, not variadic, parameters ladr can make) in its files",
                    h.name
                ),
            );
            return Err(e);
        }
    };
    let spec = Spec {
        entries,
        init: lib.init.clone(),
        share_args: lib.share_args,
    };
    let mut g = harness::generate(parsed, &spec)?;
    g.assumptions.extend(lib.note.clone());
    Ok(Some((g.parsed, g.assumptions)))
}
