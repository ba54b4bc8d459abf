//! Token-level fix-ups that let lang-c read what gcc reads, without changing meaning.
//!
//! lang-c parses C11 with most GNU extensions, but not: comments left in `.i` files,
//! `$` in identifiers (GNU), `__thread` (GNU spelling of `_Thread_local`), and the builtin
//! types `__int128` / `__float128`. Each fix-up here is an [`Edit`] recorded for the source
//! map, so positions still point into the user's text:
//!
//! ```text
//! int main$tmp;   /* c */      →  int main__S_tmp;
//! __thread int x;              →  _Thread_local int x;
//! ```
//!
//! Builtin type names are made known to lang-c by a *prelude* of typedefs placed before the
//! program (see [`Prelude`]); the front end removes those declarations from the AST again,
//! so the printer writes the builtin name back unchanged. Nothing is ever deleted.

use crate::source_map::Edit;

/// Typedefs parsed before the program so lang-c treats builtin type names as type names.
pub struct Prelude {
    pub text: String,
    /// Number of external declarations the prelude contributes.
    pub decls: usize,
}

/// Builtin type names of GCC that lang-c does not know, with a stand-in of the same kind.
/// `__auto_type` (GNU: the type of the declaration's initialiser, used by gcc's
/// `<stdatomic.h>` macros) is parsed as a type name and then replaced by
/// `__typeof__(initialiser)` ([`super::resolve_auto_type`]).
const BUILTIN_TYPES: &[(&str, &str)] = &[
    ("__int128", "long long"),
    ("__float128", "long double"),
    ("__int128_t", "long long"),
    ("__uint128_t", "unsigned long long"),
    ("__float80", "long double"),
    ("__bf16", "float"),
    ("__fp16", "float"),
    (AUTO_TYPE, "int"),
];

/// GNU's `__auto_type`.
pub const AUTO_TYPE: &str = "__auto_type";

/// Returns the edited text and the edits (offsets in the edited text): comments blanked,
/// then the token rewrites of [`super::gnu`] (which include `$` and `__thread`).
pub fn fixup(text: &str) -> (String, Vec<Edit>) {
    let blanked = blank_comments(text);
    let mut out = String::with_capacity(blanked.len() + blanked.len() / 64);
    let mut edits = Vec::new();
    let mut at = 0;
    for w in super::gnu::rewrites(&blanked) {
        out.push_str(&blanked[at..w.start]);
        let removed = w.end - w.start;
        // A blanked range keeps every offset: no edit to record.
        if removed != w.text.len() || !w.text.trim().is_empty() {
            edits.push(Edit {
                at: out.len(),
                removed,
                inserted: w.text.len(),
            });
        }
        out.push_str(&w.text);
        at = w.end;
    }
    out.push_str(&blanked[at..]);
    (out, edits)
}

/// The prelude for `text`: typedefs for the builtin type names that occur in it.
pub fn prelude(text: &str) -> Prelude {
    let mut p = String::new();
    let mut decls = 0;
    for (name, stand_in) in BUILTIN_TYPES {
        if contains_word(text, name) {
            p.push_str(&format!("typedef {stand_in} {name};\n"));
            decls += 1;
        }
    }
    Prelude { text: p, decls }
}

fn contains_word(text: &str, word: &str) -> bool {
    text.match_indices(word).any(|(i, _)| {
        let b = text.as_bytes();
        (i == 0 || !is_ident_char(b[i - 1]))
            && b.get(i + word.len()).is_none_or(|&c| !is_ident_char(c))
    })
}

fn is_ident_char(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'_'
}

/// Replaces every comment by spaces (keeping newlines), so offsets do not move.
pub fn blank_comments(text: &str) -> String {
    let b = text.as_bytes();
    let mut out = b.to_vec();
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'"' | b'\'' => i = super::gnu::skip_literal(b, i),
            b'/' if b.get(i + 1) == Some(&b'/') => {
                while i < b.len() && b[i] != b'\n' {
                    out[i] = b' ';
                    i += 1;
                }
            }
            b'/' if b.get(i + 1) == Some(&b'*') => {
                out[i] = b' ';
                out[i + 1] = b' ';
                i += 2;
                while i < b.len() && !(b[i] == b'*' && b.get(i + 1) == Some(&b'/')) {
                    if b[i] != b'\n' {
                        out[i] = b' ';
                    }
                    i += 1;
                }
                let end = (i + 2).min(b.len());
                out[i..end].fill(b' ');
                i += 2;
            }
            _ => i += 1,
        }
    }
    // Only ASCII bytes were replaced by ASCII spaces inside comments; multi-byte characters in
    // comments become several spaces, which keeps the text valid UTF-8.
    String::from_utf8(out).unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn comments_become_spaces() {
        let t = "int a; // x\n/* y\n z */int b; char *s = \"/* no */\";";
        let out = blank_comments(t);
        assert_eq!(out.len(), t.len());
        assert!(out.contains("int b;"));
        assert!(out.contains("\"/* no */\""));
        assert!(!out.contains('y'));
    }

    #[test]
    fn dollar_and_thread() {
        let (out, edits) = fixup("__thread int a$b; char *s = \"$\";");
        assert_eq!(out, "_Thread_local int a__S_b; char *s = \"$\";");
        assert_eq!(edits.len(), 2);
    }

    #[test]
    fn prelude_only_when_used() {
        assert_eq!(prelude("int x;").decls, 0);
        assert_eq!(prelude("__int128 x; __float128 y;").decls, 2);
        assert_eq!(prelude("my__int128x;").decls, 0);
        assert_eq!(prelude("__auto_type p = &x;").decls, 1);
    }
}
