//! GNU C that gcc's and glibc's headers use and lang-c does not read: rewritten at the token
//! level into spellings lang-c reads and that mean the same to gcc and CBMC.
//!
//! Each rewrite is a [`Rewrite`] of a range of the comment-blanked preprocessed text;
//! [`super::fixup::fixup`] applies them and records the edits for the source map. Removed
//! text becomes spaces (no offset moves); moved text is blanked where it was and inserted
//! where lang-c reads it.
//!
//! ```text
//! __extension__ (T)x                      →  (T)x                 (no meaning but -pedantic)
//! unsigned __int128                       →  __uint128_t          (gcc's name of that type)
//! struct __attribute__((a)) s { … }       →  struct s { … } __attribute__((a))
//! enum e __attribute__((a)) { … }         →  enum e { … } __attribute__((a))
//! case 1: __attribute__((fallthrough));   →  case 1: ;            (statement and label
//!                                                                  attributes: warnings only)
//! __alignof__(expr)                       →  __alignof__(__typeof__(expr))
//! __builtin_types_compatible_p(A, B)      →  _Generic((__typeof__(A) *)0,
//!                                                     __typeof__(B) *: 1, default: 0)
//! __label__ a, b;                         →  (blank: local labels become function labels)
//! _Alignas(64)                            →  __attribute__((__aligned__(64)))  (lang-c reads
//!                                              `_Alignas` in no struct member)
//! ```

/// What `$` becomes inside identifiers.
pub const DOLLAR: &str = "__S_";

/// End offset (exclusive) of the string or character literal starting at `i`.
pub(super) fn skip_literal(b: &[u8], mut i: usize) -> usize {
    let q = b[i];
    i += 1;
    while i < b.len() && b[i] != q && b[i] != b'\n' {
        if b[i] == b'\\' {
            i += 1;
        }
        i += 1;
    }
    (i + 1).min(b.len())
}

/// A replacement of `start..end` of the text by `text`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rewrite {
    pub start: usize,
    pub end: usize,
    pub text: String,
}

/// One token of the preprocessed text (directive lines are skipped).
#[derive(Clone, Copy, Debug)]
struct Tok {
    start: usize,
    end: usize,
}

/// The tokens of `text`: identifiers (with `$`), pp-numbers, literals, one-character
/// punctuators. Lines starting with `#` (line markers, pragmas) are not tokens.
fn tokens(text: &str) -> Vec<Tok> {
    let b = text.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    let mut line_start = true;
    while i < b.len() {
        let c = b[i];
        if c == b'\n' {
            line_start = true;
            i += 1;
            continue;
        }
        if c.is_ascii_whitespace() {
            i += 1;
            continue;
        }
        if c == b'#' && line_start {
            while i < b.len() && b[i] != b'\n' {
                i += 1;
            }
            continue;
        }
        line_start = false;
        let start = i;
        if c == b'"' || c == b'\'' {
            i = skip_literal(b, i);
        } else if c.is_ascii_alphabetic() || c == b'_' || c == b'$' {
            while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_' || b[i] == b'$') {
                i += 1;
            }
        } else if c.is_ascii_digit() {
            while i < b.len()
                && (b[i].is_ascii_alphanumeric()
                    || b[i] == b'_'
                    || b[i] == b'.'
                    || ((b[i] == b'+' || b[i] == b'-')
                        && matches!(b[i - 1], b'e' | b'E' | b'p' | b'P')))
            {
                i += 1;
            }
        } else {
            i += text[i..].chars().next().map_or(1, char::len_utf8);
        }
        out.push(Tok { start, end: i });
    }
    out
}

/// The rewrites of `text` (sorted, not overlapping).
pub fn rewrites(text: &str) -> Vec<Rewrite> {
    let toks = tokens(text);
    let mut r = Rewriter {
        text,
        toks: &toks,
        out: Vec::new(),
    };
    let mut i = 0;
    while i < toks.len() {
        i = r.at(i);
    }
    let mut out = r.out;
    out.sort_by_key(|w| (w.start, w.end));
    // Keep the first of overlapping rewrites (a later rule never rewrites inside an earlier).
    let mut kept: Vec<Rewrite> = Vec::with_capacity(out.len());
    for w in out {
        if kept.last().is_none_or(|k| k.end <= w.start) {
            kept.push(w);
        }
    }
    kept
}

struct Rewriter<'a> {
    text: &'a str,
    toks: &'a [Tok],
    out: Vec<Rewrite>,
}

const ATTRIBUTE: &[&str] = &["__attribute__", "__attribute"];

/// Type keywords: an `__alignof__` operand starting with one is a type name.
const TYPE_WORDS: &[&str] = &[
    "void",
    "char",
    "short",
    "int",
    "long",
    "float",
    "double",
    "signed",
    "unsigned",
    "_Bool",
    "_Complex",
    "struct",
    "union",
    "enum",
    "const",
    "volatile",
    "restrict",
    "_Atomic",
    "__typeof__",
    "__typeof",
    "typeof",
    "__int128",
    "__signed__",
    "__const",
];

impl Rewriter<'_> {
    fn tok(&self, i: usize) -> &str {
        self.toks.get(i).map_or("", |t| &self.text[t.start..t.end])
    }

    fn blank(&mut self, from: usize, to: usize) {
        let (start, end) = (self.toks[from].start, self.toks[to - 1].end);
        let text = self.text[start..end]
            .chars()
            .map(|c| if c == '\n' { '\n' } else { ' ' })
            .collect::<String>();
        // Multi-byte characters become one space each: keep the byte length.
        let pad = (end - start).saturating_sub(text.len());
        self.out.push(Rewrite {
            start,
            end,
            text: text + &" ".repeat(pad),
        });
    }

    fn replace(&mut self, from: usize, to: usize, text: String) {
        let (start, end) = (self.toks[from].start, self.toks[to - 1].end);
        self.out.push(Rewrite { start, end, text });
    }

    fn insert_after(&mut self, i: usize, text: String) {
        let at = self.toks[i].end;
        self.out.push(Rewrite {
            start: at,
            end: at,
            text,
        });
    }

    /// The index after the bracket group opening at `i` (`(`, `[` or `{`), or `None`.
    fn close(&self, i: usize) -> Option<usize> {
        let mut depth = 0usize;
        for j in i..self.toks.len() {
            match self.tok(j) {
                "(" | "[" | "{" => depth += 1,
                ")" | "]" | "}" => {
                    depth = depth.checked_sub(1)?;
                    if depth == 0 {
                        return Some(j + 1);
                    }
                }
                _ => {}
            }
        }
        None
    }

    /// The end of the attributes starting at `i` (`i` itself when none).
    fn attributes_end(&self, mut i: usize) -> usize {
        while ATTRIBUTE.contains(&self.tok(i)) && self.tok(i + 1) == "(" {
            match self.close(i + 1) {
                Some(end) => i = end,
                None => break,
            }
        }
        i
    }

    fn source(&self, from: usize, to: usize) -> &str {
        &self.text[self.toks[from].start..self.toks[to - 1].end]
    }

    /// Applies the rules at token `i`; returns the next token to look at.
    fn at(&mut self, i: usize) -> usize {
        let word = self.tok(i).to_string();
        match word.as_str() {
            "__extension__" => self.blank(i, i + 1),
            "__thread" => self.replace(i, i + 1, "_Thread_local".into()),
            "unsigned" | "signed" | "__signed__" if self.tok(i + 1) == "__int128" => {
                let name = if word == "unsigned" {
                    "__uint128_t"
                } else {
                    "__int128"
                };
                self.replace(i, i + 2, name.into());
                return i + 2;
            }
            "__int128" if matches!(self.tok(i + 1), "unsigned" | "signed") => {
                let name = if self.tok(i + 1) == "unsigned" {
                    "__uint128_t"
                } else {
                    "__int128"
                };
                self.replace(i, i + 2, name.into());
                return i + 2;
            }
            "struct" | "union" | "enum" => return self.tag_attributes(i),
            "__alignof__" | "__alignof" | "_Alignof" if self.tok(i + 1) == "(" => {
                if !TYPE_WORDS.contains(&self.tok(i + 2)) {
                    if let Some(end) = self.close(i + 1) {
                        self.insert_after(i + 1, "__typeof__(".into());
                        self.insert_after(end - 2, ")".into());
                    }
                }
            }
            "__builtin_types_compatible_p" if self.tok(i + 1) == "(" => {
                if let Some(end) = self.types_compatible(i) {
                    return end;
                }
            }
            "_Alignas" if self.tok(i + 1) == "(" => {
                // lang-c reads `_Alignas` among a declaration's specifiers but not a struct
                // member's: the attribute gcc gives it the same meaning as.
                if let Some(end) = self.close(i + 1) {
                    let arg = self.source(i + 2, end - 1).to_string();
                    let first = self.tok(i + 2);
                    let constant = (i + 2..end - 1).all(|j| !is_identifier(self.tok(j)));
                    if TYPE_WORDS.contains(&first) {
                        self.replace(
                            i,
                            end,
                            format!("__attribute__((__aligned__(_Alignof({arg}))))"),
                        );
                    } else if constant {
                        self.replace(i, end, format!("__attribute__((__aligned__({arg})))"));
                    }
                    return end;
                }
            }
            "__label__" => {
                if let Some(semi) = (i..self.toks.len()).find(|&j| self.tok(j) == ";") {
                    self.blank(i, semi + 1);
                    return semi + 1;
                }
            }
            w if ATTRIBUTE.contains(&w) => return self.statement_attribute(i),
            _ => {
                if word.contains('$') && !word.starts_with(['"', '\'']) {
                    let t = self.toks[i];
                    for (k, _) in word.match_indices('$') {
                        self.out.push(Rewrite {
                            start: t.start + k,
                            end: t.start + k + 1,
                            text: DOLLAR.into(),
                        });
                    }
                }
            }
        }
        i + 1
    }

    /// `struct|union|enum [attrs] [tag] [attrs] { … }`: the attributes move after the `}`
    /// (where gcc reads them as the type's too); without a body, after the tag.
    fn tag_attributes(&mut self, kw: usize) -> usize {
        let a1 = self.attributes_end(kw + 1);
        let (tag, after_tag) = if is_identifier(self.tok(a1)) && !ATTRIBUTE.contains(&self.tok(a1))
        {
            (Some(a1), a1 + 1)
        } else {
            (None, a1)
        };
        let a2 = self.attributes_end(after_tag);
        let mut moved = Vec::new();
        if a1 > kw + 1 {
            moved.push((kw + 1, a1));
        }
        if a2 > after_tag {
            moved.push((after_tag, a2));
        }
        if moved.is_empty() {
            return kw + 1;
        }
        let text: String = moved
            .iter()
            .map(|&(f, t)| format!(" {}", self.source(f, t)))
            .collect();
        let target = if self.tok(a2) == "{" {
            self.close(a2).map(|end| end - 1)
        } else {
            tag
        };
        let Some(target) = target else {
            return kw + 1;
        };
        for (f, t) in moved {
            self.blank(f, t);
        }
        self.insert_after(target, text);
        a2
    }

    /// An attribute that stands for a statement (`__attribute__((fallthrough));`) or
    /// follows a label: only warnings depend on it, so it is blanked.
    fn statement_attribute(&mut self, i: usize) -> usize {
        let end = self.attributes_end(i);
        if end == i {
            return i + 1;
        }
        let prev = if i == 0 { "" } else { self.tok(i - 1) };
        let statement = self.tok(end) == ";" && matches!(prev, ";" | "{" | ":")
            || prev == ":"
            || self.tok(end) == ";" && prev == "}" && self.closes_statement_block(i - 1);
        if statement {
            self.blank(i, end);
        }
        end
    }

    /// Whether the `}` at `close` ends a compound statement (not a struct's body).
    fn closes_statement_block(&self, close: usize) -> bool {
        let mut depth = 0usize;
        for j in (0..=close).rev() {
            match self.tok(j) {
                "}" | ")" | "]" => depth += 1,
                "{" | "(" | "[" => {
                    depth -= 1;
                    if depth == 0 {
                        let before = if j == 0 { ";" } else { self.tok(j - 1) };
                        return matches!(before, ")" | "else" | "do" | ";" | "{" | "}" | ":");
                    }
                }
                _ => {}
            }
        }
        false
    }

    /// `__builtin_types_compatible_p(A, B)` → a `_Generic` selection of the same value.
    fn types_compatible(&mut self, i: usize) -> Option<usize> {
        let end = self.close(i + 1)?;
        let mut depth = 0usize;
        let mut comma = None;
        for j in i + 2..end - 1 {
            match self.tok(j) {
                "(" | "[" | "{" => depth += 1,
                ")" | "]" | "}" => depth -= 1,
                "," if depth == 0 => comma = Some(j),
                _ => {}
            }
        }
        let comma = comma?;
        if comma == i + 2 || comma + 1 == end - 1 {
            return None;
        }
        let a = self.source(i + 2, comma).to_string();
        let b = self.source(comma + 1, end - 1).to_string();
        self.replace(
            i,
            end,
            format!("_Generic((__typeof__({a}) *)0, __typeof__({b}) *: 1, default: 0)"),
        );
        Some(end)
    }
}

fn is_identifier(t: &str) -> bool {
    t.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_')
}

#[cfg(test)]
mod tests {
    use super::*;

    fn apply(text: &str) -> String {
        let mut out = String::new();
        let mut at = 0;
        for w in rewrites(text) {
            out.push_str(&text[at..w.start]);
            out.push_str(&w.text);
            at = w.end;
        }
        out.push_str(&text[at..]);
        out.split_whitespace().collect::<Vec<_>>().join(" ")
    }

    #[test]
    fn tag_attributes_move_after_the_body() {
        assert_eq!(
            apply("typedef struct __attribute__((aligned(8))) d { char c; } d;"),
            "typedef struct d { char c; } __attribute__((aligned(8))) d;"
        );
        assert_eq!(
            apply("enum e __attribute__((packed)) { A };"),
            "enum e { A } __attribute__((packed));"
        );
        assert_eq!(apply("struct s { int a; } x;"), "struct s { int a; } x;");
    }

    #[test]
    fn statement_attributes_are_blanked_declaration_ones_kept() {
        assert_eq!(
            apply("case 1: x++; __attribute__((fallthrough)); case 2:"),
            "case 1: x++; ; case 2:"
        );
        assert_eq!(
            apply("struct s { int a; } __attribute__((packed));"),
            "struct s { int a; } __attribute__((packed));"
        );
        assert_eq!(
            apply("if (x) { y(); } __attribute__((fallthrough));"),
            "if (x) { y(); } ;"
        );
        assert_eq!(
            apply("int f(void) __attribute__((pure));"),
            "int f(void) __attribute__((pure));"
        );
    }

    #[test]
    fn types_alignof_int128_extension() {
        assert_eq!(apply("unsigned __int128 x;"), "__uint128_t x;");
        assert_eq!(apply("__extension__ (T)x;"), "(T)x;");
        assert_eq!(
            apply("__alignof__(x) + __alignof__(int)"),
            "__alignof__(__typeof__(x)) + __alignof__(int)"
        );
        assert_eq!(
            apply("__builtin_types_compatible_p(int, long[2])"),
            "_Generic((__typeof__(int) *)0, __typeof__(long[2]) *: 1, default: 0)"
        );
        assert_eq!(apply("__label__ a, b; a: ;"), "a: ;");
        assert_eq!(
            apply("struct s { _Alignas(64) int a; _Alignas(long) int b; _Alignas(T) int c; };"),
            "struct s { __attribute__((__aligned__(64))) int a; \
             __attribute__((__aligned__(_Alignof(long)))) int b; _Alignas(T) int c; };"
        );
    }

    #[test]
    fn directives_and_literals_are_not_rewritten() {
        assert_eq!(
            apply("# 1 \"__extension__\"\nchar *s = \"unsigned __int128\";"),
            "# 1 \"__extension__\" char *s = \"unsigned __int128\";"
        );
    }
}
