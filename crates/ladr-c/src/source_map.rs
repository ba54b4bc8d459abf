//! Source map: byte offsets of the text that lang-c parsed → (original file, line, column).
//!
//! The parsed text is the preprocessed program after the front end's token-level fix-ups
//! (see [`crate::frontend::fixup`]). Two layers are undone here:
//! 1. the fix-up edits (each records where it replaced how many bytes), so offsets map back to
//!    the preprocessed text as gcc wrote it (or as the `.i` file holds it);
//! 2. the `# LINE "FILE"` markers of the preprocessor, so preprocessed lines map back to the
//!    user's files and line numbers.
//!
//! The map also rebuilds, for each original file, the text of its lines as they appear in the
//! preprocessed program, so diagnostics can show source lines even when the original file is
//! not on disk (SV-COMP ships `.i` files only).

use std::collections::BTreeMap;
use std::path::Path;

/// One fix-up edit: at `at` (offset in the *edited* text) `inserted` bytes replace `removed`
/// bytes of the preprocessed text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Edit {
    pub at: usize,
    pub removed: usize,
    pub inserted: usize,
}

/// A location in an original source file (1-based line and column).
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Loc {
    pub file: String,
    pub line: u32,
    pub column: u32,
}

impl std::fmt::Display for Loc {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}:{}:{}", self.file, self.line, self.column)
    }
}

/// Where a preprocessed line came from.
#[derive(Clone, Debug)]
struct LineOrigin {
    file: usize,
    line: u32,
}

#[derive(Clone, Debug)]
pub struct SourceMap {
    /// Byte offset of the start of each line of the preprocessed text.
    line_starts: Vec<usize>,
    /// Origin of each preprocessed line; `None` for marker lines.
    origins: Vec<Option<LineOrigin>>,
    files: Vec<String>,
    /// Edits, sorted by `at`, with the cumulative delta (inserted − removed) after each.
    edits: Vec<(Edit, isize)>,
    /// Text of each original line as it appears in the preprocessed program.
    file_lines: Vec<BTreeMap<u32, String>>,
    /// The files ladr was given to check (the default file, or every unit's with
    /// [`SourceMap::with_inputs`]): the only ones [`SourceMap::source_text`] reads from disk.
    inputs: Vec<String>,
}

impl SourceMap {
    /// Builds the map for `preprocessed` (the text before fix-ups), where `default_file` names
    /// the file for lines before any marker.
    pub fn new(preprocessed: &str, default_file: &str, edits: Vec<Edit>) -> SourceMap {
        let mut files = vec![default_file.to_string()];
        let mut file_lines: Vec<BTreeMap<u32, String>> = vec![BTreeMap::new()];
        let mut line_starts = Vec::new();
        let mut origins = Vec::new();
        let (mut cur_file, mut cur_line) = (0usize, 1u32);
        let mut offset = 0;
        for raw in preprocessed.split_inclusive('\n') {
            line_starts.push(offset);
            offset += raw.len();
            let text = raw.trim_end_matches(['\n', '\r']);
            if let Some((line, file)) = parse_marker(text) {
                let idx = match files.iter().position(|f| *f == file) {
                    Some(i) => i,
                    None => {
                        files.push(file);
                        file_lines.push(BTreeMap::new());
                        files.len() - 1
                    }
                };
                cur_file = idx;
                cur_line = line;
                origins.push(None);
                continue;
            }
            origins.push(Some(LineOrigin {
                file: cur_file,
                line: cur_line,
            }));
            file_lines[cur_file]
                .entry(cur_line)
                .or_insert_with(|| text.to_string());
            // A marker may say line 4294967295: the next line is not a wrap to 0 (nor an
            // overflow panic in a debug build).
            cur_line = cur_line.saturating_add(1);
        }
        if line_starts.is_empty() {
            line_starts.push(0);
            origins.push(Some(LineOrigin { file: 0, line: 1 }));
        }
        let mut delta = 0isize;
        let edits = edits
            .into_iter()
            .map(|e| {
                delta += e.inserted as isize - e.removed as isize;
                (e, delta)
            })
            .collect();
        SourceMap {
            line_starts,
            origins,
            files,
            edits,
            file_lines,
            inputs: vec![default_file.to_string()],
        }
    }

    /// Offset in the preprocessed text for an offset in the edited (parsed) text.
    pub fn unedit(&self, offset: usize) -> usize {
        let i = self.edits.partition_point(|(e, _)| e.at <= offset);
        if i == 0 {
            return offset;
        }
        let (e, delta) = &self.edits[i - 1];
        if offset < e.at + e.inserted {
            // Inside replacement text: point at the start of what it replaced.
            let before = delta - (e.inserted as isize - e.removed as isize);
            return (e.at as isize - before) as usize;
        }
        (offset as isize - delta) as usize
    }

    /// The original location of a byte offset of the parsed text.
    pub fn lookup(&self, offset: usize) -> Loc {
        let off = self.unedit(offset);
        let idx = self.line_starts.partition_point(|&s| s <= off).max(1) - 1;
        let column = (off - self.line_starts[idx]) as u32 + 1;
        // Marker lines have no origin: use the next real line.
        let origin = self.origins[idx..]
            .iter()
            .flatten()
            .next()
            .or_else(|| self.origins[..idx].iter().rev().flatten().next());
        match origin {
            Some(o) => Loc {
                file: self.files[o.file].clone(),
                line: o.line,
                column,
            },
            None => Loc {
                file: self.files[0].clone(),
                line: 1,
                column,
            },
        }
    }

    /// The same map with `inputs` as the files ladr was given (several units linked).
    pub fn with_inputs(mut self, inputs: Vec<String>) -> SourceMap {
        self.inputs = inputs;
        self
    }

    /// The text a report may quote for `file`: an input file as read from disk (comments
    /// included), any other file only as far as the preprocessed program shows it
    /// ([`SourceMap::reconstructed_text`]). A file a line marker names is never opened: with
    /// `#line 2 "/any/file"` reports would otherwise show a file of the machine's (issue 28).
    pub fn source_text(&self, file: &str) -> Option<String> {
        let input = self
            .inputs
            .iter()
            .any(|i| i == file || Path::new(i) == Path::new(file));
        input
            .then(|| std::fs::read_to_string(file).ok())
            .flatten()
            .or_else(|| self.reconstructed_text(file))
    }

    /// All files named by the preprocessed text (the input file first).
    pub fn files(&self) -> &[String] {
        &self.files
    }

    /// The text of `file` as far as the preprocessed program shows it: its lines at their
    /// original line numbers, lines not shown left empty.
    ///
    /// `None` when the last line shown is beyond [`MAX_RECONSTRUCTED_LINES`]: a line marker
    /// `# 4294967295 "f.c"` would otherwise make 4 GB of empty lines (found by
    /// `tests/it/fuzz/`); a diagnostic there is shown without its excerpt.
    pub fn reconstructed_text(&self, file: &str) -> Option<String> {
        let idx = self.files.iter().position(|f| f == file)?;
        let lines = &self.file_lines[idx];
        let last = lines.keys().next_back().copied().unwrap_or(0);
        if last > MAX_RECONSTRUCTED_LINES {
            return None;
        }
        let mut out = String::new();
        for n in 1..=last {
            if let Some(l) = lines.get(&n) {
                out.push_str(l);
            }
            out.push('\n');
        }
        Some(out)
    }

    /// The text of one original line (as the preprocessed program shows it).
    pub fn line_text(&self, file: &str, line: u32) -> Option<&str> {
        let idx = self.files.iter().position(|f| f == file)?;
        self.file_lines[idx].get(&line).map(|s| s.as_str())
    }
}

/// The last line number [`SourceMap::reconstructed_text`] pads up to (a million empty
/// lines: 1 MB of text, and 8 MB of line starts in codespan).
pub const MAX_RECONSTRUCTED_LINES: u32 = 1 << 20;

/// Parses `# 12 "file.c" 1 3` / `#line 12 "file.c"`.
fn parse_marker(line: &str) -> Option<(u32, String)> {
    let rest = line.strip_prefix('#')?.trim_start();
    let rest = rest.strip_prefix("line").unwrap_or(rest).trim_start();
    let digits: String = rest.chars().take_while(|c| c.is_ascii_digit()).collect();
    if digits.is_empty() {
        return None;
    }
    let num: u32 = digits.parse().ok()?;
    let rest = rest[digits.len()..].trim_start();
    let file = decode_c_string(rest.strip_prefix('"')?)?;
    Some((num, file))
}

/// The file name of a line marker: gcc writes it as a C string literal, with `\\`, `\"`
/// and octal escapes (`\n` as `\012`, non-ASCII bytes as `\303\251`). `text` starts after
/// the opening quote; `None` without a closing one.
fn decode_c_string(text: &str) -> Option<String> {
    let b = text.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'"' => return Some(String::from_utf8_lossy(&out).into_owned()),
            b'\\' if i + 1 < b.len() => {
                let c = b[i + 1];
                i += 2;
                match c {
                    b'0'..=b'7' => {
                        let mut v: u32 = (c - b'0') as u32;
                        for _ in 0..2 {
                            if i < b.len() && (b'0'..=b'7').contains(&b[i]) {
                                v = v * 8 + (b[i] - b'0') as u32;
                                i += 1;
                            }
                        }
                        out.push(v as u8);
                    }
                    b'n' => out.push(b'\n'),
                    b't' => out.push(b'\t'),
                    other => out.push(other),
                }
            }
            c => {
                out.push(c);
                i += 1;
            }
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn marker_file_names_are_decoded() {
        let text = "# 1 \"q'u\\\"o\\012\\303\\251.c\"\nint x;\n";
        let m = SourceMap::new(text, "in.i", vec![]);
        assert_eq!(m.lookup(text.find("x;").unwrap()).file, "q'u\"o\n\u{e9}.c");
    }

    #[test]
    fn markers_and_edits() {
        let text = "# 1 \"a.c\"\nint x;\n# 10 \"b.h\" 1\nint y;\nint z;\n";
        let m = SourceMap::new(text, "in.i", vec![]);
        let off_y = text.find("int y").unwrap();
        assert_eq!(m.lookup(off_y).to_string(), "b.h:10:1");
        let off_z = text.find("z;").unwrap();
        assert_eq!(m.lookup(off_z).to_string(), "b.h:11:5");
        assert_eq!(m.lookup(text.find("x;").unwrap()).to_string(), "a.c:1:5");
        assert_eq!(m.line_text("b.h", 11), Some("int z;"));
    }

    #[test]
    fn edits_shift_offsets_back() {
        // "a$b = 1;" edited to "a__S_b = 1;": one byte became four.
        let pre = "a$b = 1;\n";
        let m = SourceMap::new(
            pre,
            "t.i",
            vec![Edit {
                at: 1,
                removed: 1,
                inserted: 4,
            }],
        );
        assert_eq!(m.lookup(0).column, 1);
        assert_eq!(m.lookup(2).column, 2); // inside the replacement
        assert_eq!(m.lookup(5).column, 3); // 'b'
        assert_eq!(m.lookup(7).column, 5); // '='
    }

    #[test]
    fn huge_line_numbers_stay_bounded() {
        // Found by tests/it/fuzz: a marker's line number made gigabytes of padding, and
        // the line after line 4294967295 overflowed.
        let text = "# 4294967295 \"h.c\"\nint x;\nint y;\n";
        let m = SourceMap::new(text, "in.i", vec![]);
        assert_eq!(m.lookup(text.find("y;").unwrap()).line, u32::MAX);
        assert_eq!(m.reconstructed_text("h.c"), None);
        let text = "# 1048576 \"h.c\"\nint x;\n";
        let m = SourceMap::new(text, "in.i", vec![]);
        let r = m.reconstructed_text("h.c").unwrap();
        assert_eq!(r.lines().count(), 1 << 20);
        assert!(r.ends_with("int x;\n"));
    }

    #[test]
    fn no_markers_maps_to_input() {
        let m = SourceMap::new("int a;\nint b;\n", "x.i", vec![]);
        assert_eq!(m.lookup(8).to_string(), "x.i:2:2");
    }
}
